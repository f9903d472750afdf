import { useEffect, useState } from 'preact/hooks';
import { gql, type ApiError } from '../api';
import { Chip, ErrorBox, Loading, Section, StoredText, Tags, Time } from '../components';
import { useQuery } from '../hooks';
import {
  ENTITIES,
  MEMORY_TYPES,
  PAGE_SIZE,
  SEARCH,
  TIMELINE,
  type EntityRef,
  type MemoryRow,
  type SearchHit,
  type TimelineData,
} from '../queries';
import { href } from '../route';
import type { ViewProps } from '../view-props';

interface Filters {
  type: string;
  tag: string;
  sessionId: string;
  minImportance: string;
  includeDeleted: boolean;
}

const NO_FILTERS: Filters = { type: '', tag: '', sessionId: '', minImportance: '', includeDeleted: false };

function toApiFilters(f: Filters): Record<string, unknown> {
  const importance = Number.parseFloat(f.minImportance);
  return {
    ...(f.type ? { types: [f.type] } : {}),
    ...(f.tag.trim() ? { tags: [f.tag.trim()] } : {}),
    ...(f.sessionId.trim() ? { sessionId: f.sessionId.trim() } : {}),
    ...(Number.isFinite(importance) ? { minImportance: importance } : {}),
    includeDeleted: f.includeDeleted,
  };
}

const preview = (text: string) => (text.length > 220 ? `${text.slice(0, 220)}…` : text);

function MemoryItem({ m }: { m: MemoryRow }) {
  return (
    <li class={`memory-row${m.deletedAt ? ' forgotten' : ''}`}>
      <div class="row-head">
        <Time at={m.createdAt} />
        {m.occurredAt ? (
          <span class="muted">
            happened <Time at={m.occurredAt} />
          </span>
        ) : null}
        <Chip kind="type">{m.type}</Chip>
        <span class="importance" title="importance">
          importance {m.importance.toFixed(2)}
        </span>
        {m.pinned ? <Chip kind="pinned">pinned</Chip> : null}
        {m.deletedAt ? <Chip kind="forgotten">forgotten</Chip> : null}
        {m.supersededAt ? <Chip kind="superseded">superseded</Chip> : null}
        {m.source ? <span class="muted">source: {m.source}</span> : null}
        {m.sessionId ? <span class="muted">session: {m.sessionId}</span> : null}
      </div>
      <a class="memory-link" href={href('memory', m.id)}>
        <StoredText text={preview(m.content)} />
      </a>
      <Tags tags={m.tags} />
    </li>
  );
}

function SearchBox({ apiKey, namespace }: { apiKey: string; namespace: string }) {
  const [draft, setDraft] = useState('');
  const [asked, setAsked] = useState('');
  const result = useQuery<{ search: { hasMore: boolean; hits: SearchHit[] } }>(apiKey, asked ? SEARCH : null, { q: asked, ns: namespace }, [
    asked,
    namespace,
  ]);
  return (
    <Section title="Search">
      <form
        class="inline"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setAsked(draft.trim());
        }}
      >
        <label for="search-q">Search memories</label>
        <input id="search-q" type="search" maxLength={500} value={draft} onInput={(e) => setDraft(e.currentTarget.value)} />
        <button type="submit">Search</button>
      </form>
      <ErrorBox error={result.error} />
      <Loading when={result.loading} />
      {result.data ? (
        <ol class="hits" data-testid="search-hits">
          {result.data.search.hits.length === 0 ? <li class="muted">No match.</li> : null}
          {result.data.search.hits.map((h) => (
            <li>
              <a href={href('memory', h.id)}>{h.title}</a> <Chip kind="type">{h.type}</Chip>{' '}
              <span class="muted">
                score {h.score.toFixed(3)} · ≈{h.tokenEstimate} tokens
              </span>
            </li>
          ))}
        </ol>
      ) : null}
    </Section>
  );
}

function EntitiesBox({ apiKey, namespace }: { apiKey: string; namespace: string }) {
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const result = useQuery<{ entities: { edges: Array<{ node: EntityRef & { mentions: number } }> } }>(
    apiKey,
    ENTITIES,
    { ns: namespace, search: search || null },
    [namespace, search],
  );
  return (
    <Section title="Entities">
      <form
        class="inline"
        onSubmit={(e) => {
          e.preventDefault();
          setSearch(draft.trim());
        }}
      >
        <label for="entity-q">Find an entity</label>
        <input id="entity-q" maxLength={200} value={draft} onInput={(e) => setDraft(e.currentTarget.value)} />
        <button type="submit">Find</button>
      </form>
      <ErrorBox error={result.error} />
      <ul class="plain" data-testid="entities">
        {result.data?.entities.edges.map(({ node: e }) => (
          <li>
            <a href={href('entity', e.id)}>{e.name}</a> <Chip kind="type">{e.type}</Chip> <span class="muted">{e.mentions} mentions</span>
          </li>
        ))}
      </ul>
    </Section>
  );
}

export function TimelineView({ apiKey, namespace }: ViewProps) {
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [rows, setRows] = useState<MemoryRow[]>([]);
  const [page, setPage] = useState<{ total: number; next: string | null } | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(false);

  // Cursor paging: the first page on every change of namespace or filters, more on demand.
  const load = async (after: string | null) => {
    setLoading(true);
    setError(null);
    try {
      const data = await gql<TimelineData>(apiKey, TIMELINE, { ns: namespace, filters: toApiFilters(filters), first: PAGE_SIZE, after });
      const c = data.memoriesConnection;
      setRows((previous) => (after ? [...previous, ...c.edges.map((e) => e.node)] : c.edges.map((e) => e.node)));
      setPage({ total: c.totalCount, next: c.pageInfo.hasNextPage ? c.pageInfo.endCursor : null });
    } catch (e) {
      setError(e as ApiError);
      if (!after) setRows([]);
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => {
    void load(null);
  }, [apiKey, namespace, filters]);

  const set = <K extends keyof Filters>(name: K, value: Filters[K]) => setDraft((d) => ({ ...d, [name]: value }));
  return (
    <div class="columns">
      <div class="main-col">
        <h1>
          Memories of <span class="ns">{namespace}</span>
        </h1>
        <form
          class="filters"
          aria-label="Filters"
          onSubmit={(e) => {
            e.preventDefault();
            setFilters(draft);
          }}
        >
          <label>
            Type
            <select value={draft.type} onChange={(e) => set('type', e.currentTarget.value)}>
              <option value="">any</option>
              {MEMORY_TYPES.map((t) => (
                <option value={t}>{t}</option>
              ))}
            </select>
          </label>
          <label>
            Tag
            <input value={draft.tag} maxLength={100} onInput={(e) => set('tag', e.currentTarget.value)} />
          </label>
          <label>
            Session
            <input value={draft.sessionId} maxLength={200} onInput={(e) => set('sessionId', e.currentTarget.value)} />
          </label>
          <label>
            Min. importance
            <input
              type="number"
              min={0}
              max={1}
              step={0.05}
              value={draft.minImportance}
              onInput={(e) => set('minImportance', e.currentTarget.value)}
            />
          </label>
          <label class="check">
            <input type="checkbox" checked={draft.includeDeleted} onChange={(e) => set('includeDeleted', e.currentTarget.checked)} />
            Forgotten too
          </label>
          <button type="submit">Apply</button>
        </form>
        <ErrorBox error={error} />
        {page ? (
          <p class="muted" data-testid="timeline-count">
            {rows.length} of {page.total} memories, newest first (by when they were recorded)
          </p>
        ) : null}
        <ol class="timeline" data-testid="timeline">
          {rows.map((m) => (
            <MemoryItem m={m} />
          ))}
        </ol>
        <Loading when={loading} />
        {page?.next ? (
          <button type="button" disabled={loading} onClick={() => void load(page.next)}>
            Load {PAGE_SIZE} more
          </button>
        ) : null}
      </div>
      <aside class="side-col">
        <SearchBox apiKey={apiKey} namespace={namespace} />
        <EntitiesBox apiKey={apiKey} namespace={namespace} />
      </aside>
    </div>
  );
}
