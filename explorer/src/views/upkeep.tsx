import { useState } from 'preact/hooks';
import { gql, type ApiError } from '../api';
import { Chip, ErrorBox, Loading, Section, Time } from '../components';
import { useQuery } from '../hooks';
import { REQUEUE, UPKEEP, type Depth, type UpkeepData } from '../queries';
import { href } from '../route';
import type { ViewProps } from '../view-props';

const STATES: Array<keyof Depth> = ['pending', 'leased', 'completed', 'dead'];

function RequeueButton({ apiKey, jobId, onDone }: { apiKey: string; jobId: string; onDone: () => void }) {
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <button
        type="button"
        class="small"
        data-mutating="true"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await gql(apiKey, REQUEUE, { id: jobId });
            onDone();
          } catch (e) {
            setError(e as ApiError);
          } finally {
            setBusy(false);
          }
        }}
      >
        Requeue
      </button>
      <ErrorBox error={error} />
    </>
  );
}

export function UpkeepView({ apiKey, namespace, viewer }: ViewProps) {
  const result = useQuery<UpkeepData>(apiKey, UPKEEP, { ns: namespace }, [namespace]);
  const d = result.data;
  const p = d?.pipelineStatus;
  return (
    <div>
      <h1>
        Upkeep of <span class="ns">{namespace}</span>
      </h1>
      <button type="button" onClick={result.reload} disabled={result.loading}>
        Refresh
      </button>
      <ErrorBox error={result.error} />
      <Loading when={result.loading} />
      {p && d ? (
        <div class="grid">
          <Section title="Queue">
            <table data-testid="queue-table">
              <caption class="visually-hidden">Jobs by kind and state</caption>
              <thead>
                <tr>
                  <th scope="col">kind</th>
                  {STATES.map((s) => (
                    <th scope="col">{s}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {d.queueByKind.map((row) => (
                  <tr>
                    <th scope="row">{row.kind}</th>
                    {STATES.map((s) => (
                      <td class="num">{row[s]}</td>
                    ))}
                  </tr>
                ))}
                <tr class="total">
                  <th scope="row">all</th>
                  {STATES.map((s) => (
                    <td class="num">{p.queue[s]}</td>
                  ))}
                </tr>
              </tbody>
            </table>
            <p class="muted">
              Worker {p.worker.running ? 'running' : 'not running in this replica'} · mode {p.worker.mode} · {p.worker.processed} processed,{' '}
              {p.worker.failed} failed · model server {p.worker.llmAvailable ? 'reachable' : 'unreachable'}
            </p>
          </Section>
          <Section title="Dead jobs" count={d.dead.edges.length}>
            {viewer.readOnly ? <p class="muted">This key is read-only: no requeue.</p> : null}
            <ul class="plain" data-testid="dead-jobs">
              {d.dead.edges.map(({ node: j }) => (
                <li>
                  <Chip kind="dead">dead</Chip> {j.kind}{' '}
                  <span class="muted">
                    attempt {j.attempts}/{j.maxAttempts} · <Time at={j.updatedAt} />
                  </span>
                  {j.memory ? (
                    <>
                      {' '}
                      · <a href={href('memory', j.memory.id)}>memory</a>
                    </>
                  ) : null}
                  {j.error ? <div class="error-text">{j.error}</div> : null}
                  {viewer.readOnly ? null : <RequeueButton apiKey={apiKey} jobId={j.id} onDone={result.reload} />}
                </li>
              ))}
            </ul>
          </Section>
          <Section title="Recent errors" count={p.lastErrors.length}>
            <ul class="plain">
              {p.lastErrors.map((e) => (
                <li>
                  <Time at={e.at} /> {e.kind}: <span class="error-text">{e.error}</span>
                </li>
              ))}
            </ul>
          </Section>
          <Section title="Embedding tracker">
            {p.embeddings ? (
              <p data-testid="embeddings">
                {p.embeddings.running ? 'running' : 'stopped'} · {p.embeddings.model} · {p.embeddings.processed} re-embedded,{' '}
                {p.embeddings.failed} failed · {p.embeddings.queueDepth} chunks to go · last cycle <Time at={p.embeddings.lastCycleAt} />
              </p>
            ) : (
              <p class="muted">Not shown: the tracker is off in this replica, or this key is not valid for every namespace.</p>
            )}
          </Section>
          <Section title="Echo guard">
            <p data-testid="echoes">
              {p.echoes.remembers} remembers repeated memories of this namespace since <Time at={p.echoes.since} /> · {p.echoes.skipped}{' '}
              stored nothing new · {p.echoes.remembers - p.echoes.skipped} stored only their new lines
              {p.echoes.lastAt ? (
                <>
                  {' '}
                  · last <Time at={p.echoes.lastAt} />
                </>
              ) : null}
            </p>
          </Section>
          <Section title="Retention">
            {p.retention ? (
              <>
                <p>
                  Last sweep <Time at={p.retention.startedAt} /> · {p.retention.total} deleted{p.retention.dryRun ? ' (dry run)' : ''} ·{' '}
                  {p.retention.durationMs} ms
                </p>
                <ul class="plain">
                  {p.retention.steps.map((s) => (
                    <li>
                      {s.step}: {s.deleted}
                      {s.batchFull ? ' (batch full, more to go)' : ''}
                    </li>
                  ))}
                </ul>
              </>
            ) : (
              <p class="muted">No sweep yet in this replica, or this key is not valid for every namespace.</p>
            )}
          </Section>
          <Section title="Maintenance">
            {p.maintenance ? (
              <>
                <p>
                  <Time at={p.maintenance.at} /> · {p.maintenance.mode} · health {p.maintenance.before.score.toFixed(2)}
                  {p.maintenance.after ? ` → ${p.maintenance.after.score.toFixed(2)}` : ''}
                </p>
                <ul class="plain">
                  {p.maintenance.actions.map((a) => (
                    <li>
                      {a.action}: {a.outcome} ({a.affected}) <span class="muted">{a.reason}</span>
                    </li>
                  ))}
                </ul>
              </>
            ) : (
              <p class="muted">No cycle yet in this replica, or this key is not valid for every namespace.</p>
            )}
          </Section>
        </div>
      ) : null}
    </div>
  );
}
