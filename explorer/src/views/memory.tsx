import type { ComponentChildren } from 'preact';
import { Chip, LookupState, Section, StoredText, Tags, Time, redactionKinds } from '../components';
import { useQuery } from '../hooks';
import { MEMORY, type HistoryEvent, type MemoryDetail } from '../queries';
import { href } from '../route';
import type { ViewProps } from '../view-props';

/** Detail keys that name another memory or an entity: shown as links to follow the chain. */
const MEMORY_KEYS = /^(memoryId|newMemoryId|existingMemoryId|oldMemoryId|sourceIds|memoryIds|supersededBy|supersedes|replacedBy)$/;
const ENTITY_KEYS = /^(entityId|keepId|mergedId)$/;

function detailsOf(event: HistoryEvent): Record<string, unknown> | null {
  const raw = event.details as unknown;
  if (raw && typeof raw === 'object') return raw as Record<string, unknown>;
  if (typeof raw === 'string') {
    try {
      const parsed = JSON.parse(raw);
      return parsed && typeof parsed === 'object' ? parsed : { value: raw };
    } catch {
      return { value: raw };
    }
  }
  return null;
}

function DetailValue({ name, value }: { name: string; value: unknown }): ComponentChildren {
  const ids =
    typeof value === 'string' ? [value] : Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : null;
  if (ids && MEMORY_KEYS.test(name)) return ids.map((id) => <a href={href('memory', id)}>{id}</a>);
  if (ids && ENTITY_KEYS.test(name)) return ids.map((id) => <a href={href('entity', id)}>{id}</a>);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return <StoredText text={text.length > 400 ? `${text.slice(0, 400)}…` : text} />;
}

function History({ memory }: { memory: MemoryDetail }) {
  const events = [...memory.history].sort((a, b) => a.at.localeCompare(b.at));
  return (
    <ol class="history" data-testid="history">
      {events.map((e) => {
        const details = detailsOf(e);
        return (
          <li>
            <div class="row-head">
              <Time at={e.at} /> <Chip kind="event">{e.event}</Chip>
              {e.outcome && e.outcome !== e.event ? <span class="muted">{e.outcome}</span> : null}
              {e.actor ? <span class="muted">by {e.actor}</span> : null}
              {e.model ? <span class="muted">model {e.model}</span> : null}
              {e.confidence !== null ? <span class="muted">confidence {e.confidence.toFixed(2)}</span> : null}
            </div>
            {e.reason ? <p class="reason">{e.reason}</p> : null}
            {details ? (
              <dl class="details">
                {Object.entries(details).map(([k, v]) => (
                  <>
                    <dt>{k}</dt>
                    <dd>
                      <DetailValue name={k} value={v} />
                    </dd>
                  </>
                ))}
              </dl>
            ) : null}
          </li>
        );
      })}
      {memory.supersededBy ? (
        <li>
          <div class="row-head">
            <Time at={memory.supersededAt} /> <Chip kind="superseded">superseded by</Chip>{' '}
            <a href={href('memory', memory.supersededBy)}>{memory.supersededBy}</a>
          </div>
        </li>
      ) : null}
      {memory.deletedAt && !events.some((e) => e.event === 'forgotten') ? (
        <li>
          <Time at={memory.deletedAt} /> <Chip kind="forgotten">forgotten</Chip>
        </li>
      ) : null}
    </ol>
  );
}

function Facts({ m }: { m: MemoryDetail }) {
  const rows: Array<[string, ComponentChildren]> = [
    ['Namespace', m.namespace],
    ['Type', <Chip kind="type">{m.type}</Chip>],
    ['Importance', m.importance.toFixed(2)],
    ['Temporal', m.temporal],
    ['Created', <Time at={m.createdAt} />],
    ['Occurred', <Time at={m.occurredAt} />],
    ['Updated', <Time at={m.updatedAt} />],
    ['Valid until', <Time at={m.validUntil} />],
    ['Source', m.source ?? '—'],
    ['Session', m.sessionId ?? '—'],
    ['External id', m.externalId ?? '—'],
    ['Written by (key)', m.actor ?? '—'],
    ['Who (claimed)', m.who ?? '—'],
    ['Why', m.why ?? '—'],
    ['Accessed', `${m.accessCount} times`],
    ['Embedding model', m.embeddingModel ?? '—'],
  ];
  return (
    <dl class="facts">
      {rows.map(([k, v]) => (
        <>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </>
      ))}
    </dl>
  );
}

export function MemoryView({ apiKey, id }: ViewProps) {
  const result = useQuery<{ memory: MemoryDetail | null }>(apiKey, id ? MEMORY : null, { id }, [id]);
  const m = result.data?.memory ?? null;
  if (!id) return <p>No memory chosen.</p>;
  const kinds = m ? redactionKinds(m.content) : [];
  return (
    <div>
      <LookupState error={result.error} loading={result.loading} missing={Boolean(result.data) && !m} what="memory" id={id} />
      {m ? (
        <>
          <h1>
            Memory <code>{m.id}</code>
            {m.pinned ? <Chip kind="pinned">pinned</Chip> : null}
            {m.deletedAt ? <Chip kind="forgotten">forgotten</Chip> : null}
            {m.supersededAt ? <Chip kind="superseded">superseded</Chip> : null}
          </h1>
          <div class="columns">
            <div class="main-col">
              <Section title="Content as stored">
                <blockquote class="content" data-testid="memory-content">
                  <StoredText text={m.content} />
                </blockquote>
                <p data-testid="redactions">
                  {kinds.length === 0 ? (
                    <span class="muted">No redaction placeholder in the stored text.</span>
                  ) : (
                    <>
                      Redacted:{' '}
                      {kinds.map(([kind, count]) => (
                        <Chip kind="redacted">
                          {kind} × {count}
                        </Chip>
                      ))}
                    </>
                  )}
                </p>
                <Tags tags={m.tags} />
              </Section>
              <Section title="History" count={m.history.length}>
                <History memory={m} />
              </Section>
              <Section title="Chunks" count={m.chunks.length}>
                <ol class="chunks">
                  {m.chunks.map((c) => (
                    <li>
                      <span class="muted">
                        #{c.index} · chars {c.startChar}–{c.endChar}
                      </span>
                      <p>
                        <StoredText text={c.text} />
                      </p>
                    </li>
                  ))}
                </ol>
              </Section>
            </div>
            <aside class="side-col">
              <Section title="About">
                <Facts m={m} />
              </Section>
              <Section title="Entities" count={m.entities.length}>
                <ul class="plain" data-testid="memory-entities">
                  {m.entities.map((e) => (
                    <li>
                      <a href={href('entity', e.id)}>{e.name}</a> <Chip kind="type">{e.type}</Chip>{' '}
                      <span class="muted">{e.mentions} mentions</span>
                    </li>
                  ))}
                </ul>
              </Section>
              <Section title="Attributes it produced" count={m.attributes.length}>
                <ul class="plain">
                  {m.attributes.map((a) => (
                    <li>
                      <Chip kind={a.status}>{a.status}</Chip> {a.content}{' '}
                      <span class="muted">
                        {a.kind} · confidence {a.confidence.toFixed(2)} · from <Time at={a.validFrom} />
                        {a.validTo ? (
                          <>
                            {' '}
                            to <Time at={a.validTo} />
                          </>
                        ) : null}
                      </span>
                      {a.supersededBy ? <div class="muted">replaced by “{a.supersededBy.content}”</div> : null}
                      {a.supersedes ? <div class="muted">replaces “{a.supersedes.content}”</div> : null}
                    </li>
                  ))}
                </ul>
              </Section>
              <Section title="Deep-path jobs" count={m.jobs.length}>
                <ul class="plain" data-testid="memory-jobs">
                  {m.jobs.map((j) => (
                    <li>
                      <Chip kind={j.status}>{j.status}</Chip> {j.kind}{' '}
                      <span class="muted">
                        attempt {j.attempts}/{j.maxAttempts} · <Time at={j.updatedAt} />
                      </span>
                      {j.error ? <div class="error-text">{j.error}</div> : null}
                    </li>
                  ))}
                </ul>
              </Section>
            </aside>
          </div>
        </>
      ) : null}
    </div>
  );
}
