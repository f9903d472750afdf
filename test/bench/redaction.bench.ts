/**
 * Redaction precision and recall. Precision: every turn of the named conversation datasets
 * (LoCoMo's file shape) and of a code-heavy conversation (test/bench/redaction-code-corpus.ts),
 * none of which holds a secret, goes through the redactor as a memory's content; a turn changed
 * or refused is a false positive. Recall: every planted secret (test/bench/redaction-planted-corpus.ts)
 * goes through the field it sits in (content, source, metadata); a secret missed is one whose
 * text, or any 6-character piece of it, survives in what would be stored.
 *
 * Usage: npm run bench:redaction -- [<dir> …] [--json] [--examples N]
 */
import { redactSecrets } from '../../src/redaction/redact.js';
import { redactJsonValue, redactStored } from '../../src/redaction/redact-stored.js';
import { codeConversation } from './redaction-code-corpus.js';
import { loadDataset } from './locomo-data.js';
import { plantedCorpus, secretPieces, type PlantedCase } from './redaction-planted-corpus.js';

const args = process.argv.slice(2);
const json = args.includes('--json');
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const exampleLimit = Number(option('--examples') ?? 0);
const dirs = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--examples');

interface PrecisionRow {
  set: string;
  turns: number;
  changed: number;
  refused: number;
  /** (changed + refused) / turns, in percent. */
  falsePositivePct: number;
  kinds: Record<string, number>;
  examples: string[];
}

interface RecallRow {
  kind: string;
  field: string;
  secrets: number;
  missed: number;
  refused: number;
}

function precision(set: string, turns: readonly string[]): PrecisionRow {
  let changed = 0;
  let refused = 0;
  const kinds: Record<string, number> = {};
  const examples: string[] = [];
  for (const turn of turns) {
    try {
      const { text, redactions } = redactSecrets(turn);
      if (text === turn) continue;
      changed += 1;
      for (const r of redactions) kinds[r.kind] = (kinds[r.kind] ?? 0) + r.count;
      if (examples.length < exampleLimit) examples.push(firstDifference(turn, text));
    } catch (error) {
      if ((error as { code?: string }).code !== 'PII_REJECTED') throw error;
      refused += 1;
      if (examples.length < exampleLimit) examples.push(`REFUSED: ${turn.slice(0, 160)}`);
    }
  }
  return {
    set,
    turns: turns.length,
    changed,
    refused,
    falsePositivePct: round((100 * (changed + refused)) / Math.max(1, turns.length)),
    kinds,
    examples,
  };
}

/** Around the first changed character, for the examples. */
function firstDifference(before: string, after: string): string {
  let i = 0;
  while (i < before.length && before[i] === after[i]) i++;
  return `${before.slice(Math.max(0, i - 50), i + 50)}  →  ${after.slice(Math.max(0, i - 50), i + 50)}`.replace(/\n/g, '⏎');
}

/** What would be stored for the case's field, or null when the write is refused. */
function stored(c: PlantedCase): string | null {
  if (c.field === 'metadata') return JSON.stringify(redactJsonValue(JSON.parse(c.value)));
  if (c.field === 'source') return redactStored(c.value);
  try {
    return redactSecrets(c.value).text;
  } catch (error) {
    if ((error as { code?: string }).code !== 'PII_REJECTED') throw error;
    return null;
  }
}

function recall(cases: readonly PlantedCase[]): { rows: RecallRow[]; examples: string[] } {
  const rows = new Map<string, RecallRow>();
  const examples: string[] = [];
  for (const c of cases) {
    const row = rows.get(c.kind) ?? { kind: c.kind, field: c.field, secrets: 0, missed: 0, refused: 0 };
    rows.set(c.kind, row);
    const out = stored(c);
    for (const secret of c.secrets) {
      row.secrets += 1;
      if (out === null) {
        row.refused += 1;
        continue;
      }
      // A piece that the surrounding text holds anyway is no evidence of a leak.
      const context = c.value.split(secret).join(' ');
      if (secretPieces(secret).some((p) => out.includes(p) && !context.includes(p))) {
        row.missed += 1;
        if (examples.length < exampleLimit) examples.push(`${c.kind}: ${out.slice(0, 200)}`.replace(/\n/g, '⏎'));
      }
    }
  }
  return { rows: [...rows.values()], examples };
}

const round = (x: number) => Math.round(x * 1000) / 1000;

async function main(): Promise<void> {
  const sets: Array<[string, string[]]> = [];
  for (const dir of dirs) {
    const dataset = await loadDataset(dir);
    sets.push([dataset.name, dataset.conversations.flatMap((c) => c.turns.map((t) => t.content))]);
  }
  sets.push(['code-conversation', codeConversation()]);
  const t0 = performance.now();
  const rows = sets.map(([name, turns]) => precision(name, turns));
  const planted = recall(plantedCorpus());
  const ms = Math.round(performance.now() - t0);
  const all = rows.reduce((a, r) => ({ turns: a.turns + r.turns, flagged: a.flagged + r.changed + r.refused }), { turns: 0, flagged: 0 });
  const secrets = planted.rows.reduce((a, r) => ({ n: a.n + r.secrets, missed: a.missed + r.missed, refused: a.refused + r.refused }), {
    n: 0,
    missed: 0,
    refused: 0,
  });
  const summary = {
    turns: all.turns,
    falsePositivePct: round((100 * all.flagged) / Math.max(1, all.turns)),
    plantedSecrets: secrets.n,
    missed: secrets.missed,
    missedPct: round((100 * secrets.missed) / Math.max(1, secrets.n)),
    refusedPlanted: secrets.refused,
    ms,
  };
  if (json) {
    process.stdout.write(
      `${JSON.stringify({ precision: rows, recall: planted.rows, summary, recallExamples: planted.examples }, null, 2)}\n`,
    );
    return;
  }
  console.log('Precision (no secret in any turn): a changed or refused turn is a false positive');
  console.log('set                    turns  changed  refused   FP %   kinds');
  for (const r of rows) {
    console.log(
      `${r.set.padEnd(20)} ${String(r.turns).padStart(7)} ${String(r.changed).padStart(8)} ${String(r.refused).padStart(8)} ${r.falsePositivePct.toFixed(3).padStart(6)}   ${JSON.stringify(r.kinds)}`,
    );
    for (const e of r.examples) console.log(`    ${e}`);
  }
  console.log('\nRecall (planted secrets): missed = the secret or a 6-character piece of it is stored');
  console.log('kind                                   field     secrets  missed  refused');
  for (const r of planted.rows)
    console.log(
      `${r.kind.padEnd(38)} ${r.field.padEnd(9)} ${String(r.secrets).padStart(7)} ${String(r.missed).padStart(7)} ${String(r.refused).padStart(8)}`,
    );
  for (const e of planted.examples) console.log(`    ${e}`);
  console.log(
    `\nall: ${summary.turns} turns, FP ${summary.falsePositivePct} %; ${summary.plantedSecrets} planted secrets, ${summary.missed} missed (${summary.missedPct} %), ${summary.refusedPlanted} refused; ${ms} ms`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
