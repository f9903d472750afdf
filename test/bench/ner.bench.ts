/**
 * Named-entity recognizers on the labelled sample (test/support/ner-sample.ts): precision and
 * recall per type and per recognizer, and speed in ms per 1,000 characters. No database, no
 * network: every library ships its model in its npm package.
 *
 *   npm run bench:ner                 # the table
 *   npm run -s bench:ner -- --json    # one JSON object on stdout
 *   flags: --rounds 5  --verbose (false positives and misses of the whole linker)
 *
 * Recognizers: compromise as it comes (people/places/organizations, core #Date tags),
 * compromise-dates (dates only), wink-nlp with wink-eng-lite-web-model (its entities, plus its
 * proper-noun runs scored untyped: the lite model types no person, place or organization), the
 * project's recognizer (compromise behind the precision rules) and the whole inline linker with
 * and without it (strong person/organization/place entities only: what creates graph nodes).
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import nlp from 'compromise';
import winkNLP from 'wink-nlp';
import winkModel from 'wink-eng-lite-web-model';
import { extractEntities } from '../../src/linker/extract-entities.js';
import { recognizeNamedEntities } from '../../src/linker/named-entities.js';
import { NER_SAMPLE } from '../support/ner-sample.js';
import { normalizeNerText, scoreNer, type Prediction, type ScoreTable } from '../support/ner-score.js';

const { values: args } = parseArgs({
  options: { rounds: { type: 'string' }, json: { type: 'boolean', default: false }, verbose: { type: 'boolean', default: false } },
  strict: true,
});
const rounds = Math.max(1, Number.parseInt(args.rounds ?? '5', 10) || 5);
if (args.json) console.log = console.error;

type Predict = (text: string) => Prediction[];
type Doc = ReturnType<typeof nlp>;
// compromise's typings give each view its own class; all of them have out('array').
const texts = (view: unknown) => (view as { out(format: string): string[] }).out('array');

function compromiseRaw(text: string): Prediction[] {
  const doc: Doc = nlp(text);
  return [
    ...texts(doc.people()).map((t) => ({ text: t, type: 'person' })),
    ...texts(doc.organizations()).map((t) => ({ text: t, type: 'organization' })),
    ...texts(doc.places()).map((t) => ({ text: t, type: 'place' })),
    ...texts(doc.match('#Date+')).map((t) => ({ text: t, type: 'date' })),
  ];
}

const wink = winkNLP(winkModel);
const its = wink.its;
function winkRaw(text: string): Prediction[] {
  const doc = wink.readDoc(text);
  const out: Prediction[] = (doc.entities().out(its.detail) as Array<{ value: string; type: string }>).map((e) => ({
    text: e.value,
    type: e.type === 'DATE' ? 'date' : e.type.toLowerCase(),
  }));
  let run: string[] = [];
  doc.tokens().each((t: { out(f: unknown): string }) => {
    if (t.out(its.pos) === 'PROPN') run.push(t.out(its.value));
    else if (run.length) out.push({ text: run.join(' '), type: 'name' }), (run = []);
  });
  if (run.length) out.push({ text: run.join(' '), type: 'name' });
  return out;
}

const recognizer: Predict = (text) => recognizeNamedEntities(text).map((e) => ({ text: e.name, type: e.type }));
/** The linker's entity types in the sample's terms: a tool is a product; the rest keep their name. */
const SAMPLE_TYPE: Record<string, string> = { tool: 'product' };
/** Strong entities only: what creates graph nodes. */
const linker =
  (namedEntities: boolean): Predict =>
  (text) =>
    extractEntities(text, { namedEntities })
      .filter((e) => e.strength === 'strong')
      .map((e) => ({ text: e.name, type: SAMPLE_TYPE[e.type] ?? e.type }));

/**
 * Median ms per 1,000 characters over the whole sample, after one warm-up pass: wall time, and
 * this process's CPU time (less distorted when other work shares the machine).
 */
function speed(predict: Predict): { wall: number; cpu: number } {
  const chars = NER_SAMPLE.reduce((n, e) => n + e.text.length, 0);
  for (const e of NER_SAMPLE) predict(e.text);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    for (const e of NER_SAMPLE) predict(e.text);
    const c = process.cpuUsage(c0);
    wall.push(((performance.now() - t0) / chars) * 1000);
    cpu.push(((c.user + c.system) / 1000 / chars) * 1000);
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return { wall: median(wall), cpu: median(cpu) };
}

const results: Array<{ name: string; scores: ScoreTable; msPer1kChars: number; cpuMsPer1kChars: number }> = [];
const run = (name: string, predict: Predict) => {
  const { wall, cpu } = speed(predict);
  results.push({ name, scores: scoreNer(NER_SAMPLE, predict), msPer1kChars: wall, cpuMsPer1kChars: cpu });
};

run('linker without the recognizer', linker(false));
run('linker + recognizer', linker(true));
run('recognizer (compromise + rules)', recognizer);
run('compromise 14 raw', compromiseRaw);
run('wink-nlp lite raw', winkRaw);
// The dates plugin changes compromise's tagger for the whole process: measured last.
const { default: datesPlugin } = await import('compromise-dates');
nlp.plugin(datesPlugin);
run('compromise-dates (dates only)', (text) =>
  texts((nlp(text) as Doc & { dates(): Doc }).dates()).map((t) => ({ text: t, type: 'date' })),
);

const TYPES = ['person', 'organization', 'place', 'product', 'system', 'project', 'work', 'date', 'names', 'untyped'];
const f = (n: number) => n.toFixed(2);
if (args.json) {
  process.stdout.write(`${JSON.stringify({ sample: NER_SAMPLE.length, load: os.loadavg(), results })}\n`);
} else {
  const gold = scoreNer(NER_SAMPLE, () => []);
  console.log(
    `sample: ${NER_SAMPLE.length} examples, gold ${TYPES.filter((t) => gold[t])
      .map((t) => `${t} ${gold[t]!.gold}`)
      .join(', ')}`,
  );
  console.log(
    `load average: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} on ${os.availableParallelism()} cores; ${rounds} rounds\n`,
  );
  const header = ['recognizer', ...TYPES.map((t) => `${t} P/R`), 'ms/1k chars', 'cpu ms/1k'];
  const rows = results.map((r) => [
    r.name,
    ...TYPES.map((t) =>
      r.scores[t]?.predicted ? `${f(r.scores[t]!.precision)}/${f(r.scores[t]!.recall)}` : `–/${f(r.scores[t]?.recall ?? 0)}`,
    ),
    r.msPer1kChars.toFixed(1),
    r.cpuMsPer1kChars.toFixed(1),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  for (const row of [header, widths.map((w) => '-'.repeat(w)), ...rows])
    console.log(row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
  console.log(
    '\nP/R: precision/recall; – where the recognizer predicted none of that type. "untyped" ignores the type; "names" is untyped without dates.',
  );
}

if (args.verbose) {
  for (const example of NER_SAMPLE) {
    const gold = new Set(example.entities.map((e) => `${e.type}:${normalizeNerText(e.text)}`));
    const got = new Set(linker(true)(example.text).map((p) => `${p.type}:${normalizeNerText(p.text)}`));
    const falsePositives = [...got].filter((k) => !gold.has(k));
    const misses = [...gold].filter((k) => !got.has(k) && !k.startsWith('date:'));
    if (falsePositives.length || misses.length)
      console.error(`${example.text}\n  false: ${falsePositives.join(', ') || '–'}  missed: ${misses.join(', ') || '–'}`);
  }
}
