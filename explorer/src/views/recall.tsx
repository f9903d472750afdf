import { useState } from 'preact/hooks';
import { Bar, Chip, ErrorBox, Loading, Section, StoredText } from '../components';
import { useQuery } from '../hooks';
import { RECALL, type Explain, type RecallData } from '../queries';
import { href } from '../route';
import type { ViewProps } from '../view-props';

const DEFAULT_BUDGET = 2000;
const DEFAULT_LIMIT = 10;

/** Multipliers below 1 lower a result; their product is the dampening. */
const DAMPERS: Array<keyof Explain> = ['resolution', 'importance', 'time', 'stale'];

function dampening(x: Explain): number {
  return DAMPERS.reduce((product, k) => product * (x[k] as number), 1);
}

function Components({ x }: { x: Explain }) {
  return (
    <div class="bars" data-testid="explain-bars">
      <Bar label="vector" value={x.vector?.normalized} kind="vector" />
      <Bar label="keyword" value={x.keyword?.normalized} kind="keyword" />
      {x.hint ? <Bar label="hint" value={x.hint.normalized} kind="hint" /> : null}
      <Bar label={`fused (${x.method})`} value={x.fused} kind="fused" />
      <Bar label="graph boost" value={x.graphBoost} kind="boost" />
      <Bar label="context" value={x.context} kind="boost" />
      <Bar label="dampening ×" value={dampening(x)} kind="damp" />
      <Bar label="rerank" value={x.rerank} kind="rerank" />
      <Bar label="final" value={x.final} kind="final" />
      <p class="muted small-print">
        {DAMPERS.map((k) => `${k} ×${(x[k] as number).toFixed(2)}`).join(' · ')}
        {x.pinned ? ' · pinned: no penalty' : ''}
        {x.vector ? ` · vector rank ${x.vector.rank}` : ''}
        {x.keyword ? ` · keyword rank ${x.keyword.rank}` : ''}
      </p>
    </div>
  );
}

export function RecallView({ apiKey, namespace }: ViewProps) {
  const [draft, setDraft] = useState({ q: '', budget: String(DEFAULT_BUDGET), limit: String(DEFAULT_LIMIT) });
  const [asked, setAsked] = useState<{ q: string; budget: number; limit: number } | null>(null);
  const result = useQuery<RecallData>(
    apiKey,
    asked ? RECALL : null,
    { q: asked?.q, ns: namespace, budget: asked?.budget, limit: asked?.limit },
    [asked, namespace],
  );
  const r = result.data?.recall;
  const kept = new Set(r?.items.map((i) => i.memory.id) ?? []);
  const leftOut = result.data?.ranked.hits.filter((h) => !kept.has(h.id)) ?? [];
  const maxFinal = Math.max(1e-9, ...(r?.items.map((i) => i.explain?.final ?? i.score) ?? [0]));

  return (
    <div>
      <h1>Recall, explained</h1>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          const q = draft.q.trim();
          if (!q) return;
          const clamp = (value: string, fallback: number, max: number) =>
            Math.min(max, Math.max(1, Number.parseInt(value, 10) || fallback));
          setAsked({ q, budget: clamp(draft.budget, DEFAULT_BUDGET, 100_000), limit: clamp(draft.limit, DEFAULT_LIMIT, 50) });
        }}
      >
        <label class="grow">
          Question
          <input
            id="recall-q"
            type="search"
            maxLength={1000}
            value={draft.q}
            onInput={(e) => setDraft({ ...draft, q: e.currentTarget.value })}
          />
        </label>
        <label>
          Token budget
          <input
            type="number"
            min={1}
            max={100000}
            value={draft.budget}
            onInput={(e) => setDraft({ ...draft, budget: e.currentTarget.value })}
          />
        </label>
        <label>
          Limit
          <input type="number" min={1} max={50} value={draft.limit} onInput={(e) => setDraft({ ...draft, limit: e.currentTarget.value })} />
        </label>
        <button type="submit">Recall</button>
      </form>
      <ErrorBox error={result.error} />
      <Loading when={result.loading} />
      {r ? (
        <div class="columns">
          <div class="main-col">
            <p class="muted" data-testid="recall-summary">
              {r.items.length} kept · {r.totalTokens} tokens · {(r.budgetUsed * 100).toFixed(0)}% of the budget · {r.tookMs.toFixed(0)} ms
              {r.rerankApplied ? ' · reranked' : ''}
            </p>
            <ol class="recall-items" data-testid="recall-items">
              {r.items.map((item, i) => (
                <li class="recall-item">
                  <div class="row-head">
                    <strong>#{i + 1}</strong> <Chip kind="type">{item.memory.type}</Chip> <span>score {item.score.toFixed(3)}</span>
                    <span class="muted">{item.tokens} tokens</span>
                  </div>
                  <a href={href('memory', item.memory.id)}>
                    <StoredText text={item.memory.content.length > 240 ? `${item.memory.content.slice(0, 240)}…` : item.memory.content} />
                  </a>
                  <Bar label="share of best" value={(item.explain?.final ?? item.score) / maxFinal} kind="final" />
                  {item.explain ? <Components x={item.explain} /> : null}
                </li>
              ))}
            </ol>
          </div>
          <aside class="side-col">
            <Section title="Ranked but left out" count={leftOut.length}>
              <p class="muted">Matches the search ranking found that the token budget or the limit kept out of the block.</p>
              <ul class="plain" data-testid="left-out">
                {leftOut.map((h) => (
                  <li>
                    <a href={href('memory', h.id)}>{h.title}</a>{' '}
                    <span class="muted">
                      ≈{h.tokenEstimate} tokens · score {h.score.toFixed(3)}
                    </span>
                  </li>
                ))}
              </ul>
            </Section>
            <Section title="The <memory> block">
              <pre class="prompt" data-testid="prompt">
                <StoredText text={r.prompt} />
              </pre>
            </Section>
          </aside>
        </div>
      ) : null}
    </div>
  );
}
