import { useState } from 'preact/hooks';
import { gql, type ApiError } from '../api';
import { Chip, ErrorBox, LookupState, Section, StoredText, Time } from '../components';
import { useQuery } from '../hooks';
import { ENTITY, SUPERSESSION, type AttributeView, type EntityDetail, type EntityRef, type HistoryEvent } from '../queries';
import { href } from '../route';
import type { ViewProps } from '../view-props';
import { EntityGraph } from './graph';

function coMentionsOf(entity: EntityDetail): Array<[EntityRef, number]> {
  const counts = new Map<string, [EntityRef, number]>();
  for (const memory of entity.memories) {
    for (const other of memory.entities) {
      if (other.id === entity.id) continue;
      const seen = counts.get(other.id);
      counts.set(other.id, [other, (seen?.[1] ?? 0) + 1]);
    }
  }
  return [...counts.values()].sort((a, b) => b[1] - a[1]).slice(0, 30);
}

const detailsOf = (e: HistoryEvent): Record<string, unknown> => {
  const raw = e.details as unknown;
  if (raw && typeof raw === 'object') return raw as Record<string, unknown>;
  try {
    return typeof raw === 'string' ? (JSON.parse(raw) as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** Asked on demand: the supersession event recorded on the memory of the attribute that replaced this one. */
function WhySuperseded({ apiKey, a }: { apiKey: string; a: AttributeView }) {
  const [why, setWhy] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const sourceId = a.supersededBy?.source?.id;
  if (!sourceId) return null;
  if (why !== null) return <div data-testid="why-superseded">why: {why}</div>;
  return (
    <>
      <button
        type="button"
        class="small"
        aria-label={`Why was “${a.content}” superseded?`}
        onClick={async () => {
          try {
            const { memory } = await gql<{ memory: { history: HistoryEvent[] } | null }>(apiKey, SUPERSESSION, { id: sourceId });
            const event = memory?.history.find((e) => detailsOf(e).oldAttributeId === a.id);
            const method = event ? detailsOf(event).method : null;
            setWhy(
              event
                ? `${event.reason ?? event.outcome ?? event.event}${typeof method === 'string' ? ` (${method})` : ''}`
                : 'no supersession event recorded',
            );
          } catch (e) {
            setError(e as ApiError);
          }
        }}
      >
        Why?
      </button>
      <ErrorBox error={error} />
    </>
  );
}

function AttributeItem({ apiKey, a }: { apiKey: string; a: AttributeView }) {
  return (
    <li class={a.status === 'superseded' ? 'superseded' : ''}>
      <Chip kind={a.status}>{a.status}</Chip> {a.content}{' '}
      <span class="muted">
        {a.kind} · confidence {a.confidence.toFixed(2)} · since <Time at={a.validFrom} />
      </span>
      {a.status === 'superseded' ? (
        <div class="muted">
          superseded <Time at={a.validTo} />
          {a.supersededBy ? <> by “{a.supersededBy.content}”</> : null}
          <WhySuperseded apiKey={apiKey} a={a} />
        </div>
      ) : null}
      {a.source ? (
        <div class="muted">
          why: <a href={href('memory', a.source.id)}>the memory it came from</a>
        </div>
      ) : null}
    </li>
  );
}

export function EntityView({ apiKey, id }: ViewProps) {
  const result = useQuery<{ entity: EntityDetail | null }>(apiKey, id ? ENTITY : null, { id }, [id]);
  const e = result.data?.entity ?? null;
  if (!id) return <p>No entity chosen.</p>;
  return (
    <div>
      <LookupState error={result.error} loading={result.loading} missing={Boolean(result.data) && !e} what="entity" id={id} />
      {e ? (
        <>
          <h1>
            {e.name} <Chip kind="type">{e.type}</Chip>
          </h1>
          <p class="muted">
            {e.mentions} mentions · since <Time at={e.createdAt} />
            {e.aliases.length ? ` · also known as ${e.aliases.join(', ')}` : ''}
            {e.description ? ` · ${e.description}` : ''}
          </p>
          <div class="columns">
            <div class="main-col">
              <Section title="Graph">
                <EntityGraph key={e.id} apiKey={apiKey} center={e} coMentions={coMentionsOf(e)} />
              </Section>
              <Section title="Memories that mention it" count={e.memories.length}>
                <ul class="plain" data-testid="entity-memories">
                  {e.memories.map((m) => (
                    <li>
                      <Time at={m.createdAt} /> <Chip kind="type">{m.type}</Chip>{' '}
                      <a href={href('memory', m.id)}>
                        <StoredText text={m.content.length > 180 ? `${m.content.slice(0, 180)}…` : m.content} />
                      </a>
                    </li>
                  ))}
                </ul>
              </Section>
            </div>
            <aside class="side-col">
              <Section title="Aspects" count={e.aspects.length}>
                {e.aspects.length === 0 ? <p class="muted">No aspect yet: the deep path classifies attributes into aspects.</p> : null}
                {e.aspects.map((aspect) => (
                  <div class="aspect" data-testid="aspect">
                    <h3>
                      {aspect.name} <span class="muted">weight {aspect.weight.toFixed(2)}</span>
                    </h3>
                    <ul class="plain">
                      {[...aspect.attributes]
                        .sort((a, b) => (a.status === b.status ? b.validFrom.localeCompare(a.validFrom) : a.status === 'active' ? -1 : 1))
                        .map((a) => (
                          <AttributeItem apiKey={apiKey} a={a} />
                        ))}
                    </ul>
                  </div>
                ))}
              </Section>
            </aside>
          </div>
        </>
      ) : null}
    </div>
  );
}
