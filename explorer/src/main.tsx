import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { remember, remembered, storedKey, storeKey } from './api';
import { ErrorBox } from './components';
import { useQuery } from './hooks';
import { VIEWER, type Viewer } from './queries';
import { href, useRoute, type View } from './route';
import { EntityView } from './views/entity';
import { MemoryView } from './views/memory';
import { RecallView } from './views/recall';
import { TimelineView } from './views/timeline';
import { UpkeepView } from './views/upkeep';
import type { ViewProps } from './view-props';
import './style.css';

const NAMESPACE_STORAGE = 'mnemograph.explorer.namespace';
const NAV: Array<[View, string]> = [
  ['timeline', 'Timeline'],
  ['recall', 'Recall, explained'],
  ['upkeep', 'Upkeep'],
];

function KeyForm({ apiKey, onKey }: { apiKey: string; onKey: (key: string) => void }) {
  const [draft, setDraft] = useState(apiKey);
  return (
    <form
      class="key-form"
      onSubmit={(event) => {
        event.preventDefault();
        onKey(draft.trim());
      }}
    >
      <label for="api-key">API key</label>
      <input
        id="api-key"
        type="password"
        autoComplete="off"
        spellcheck={false}
        value={draft}
        onInput={(e) => setDraft(e.currentTarget.value)}
        placeholder="none in open mode"
      />
      <button type="submit">Use key</button>
    </form>
  );
}

/**
 * A named key picks among its namespaces; a "*" key may also type one (only the first 100
 * namespaces holding memories are listed).
 */
function NamespacePicker({
  namespace,
  options,
  free,
  onPick,
}: {
  namespace: string;
  options: string[];
  free: boolean;
  onPick: (ns: string) => void;
}) {
  const [draft, setDraft] = useState(namespace);
  useEffect(() => setDraft(namespace), [namespace]);
  if (!free) {
    return (
      <>
        <label for="namespace">Namespace</label>
        <select id="namespace" value={namespace} onChange={(e) => onPick(e.currentTarget.value)}>
          {options.map((ns) => (
            <option value={ns}>{ns}</option>
          ))}
        </select>
      </>
    );
  }
  return (
    <form
      class="key-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (draft.trim()) onPick(draft.trim());
      }}
    >
      <label for="namespace">Namespace</label>
      <input
        id="namespace"
        list="known-namespaces"
        maxLength={200}
        spellcheck={false}
        value={draft}
        onInput={(e) => setDraft(e.currentTarget.value)}
      />
      <datalist id="known-namespaces">
        {options.map((ns) => (
          <option value={ns} />
        ))}
      </datalist>
      <button type="submit">Open</button>
    </form>
  );
}

function App() {
  const route = useRoute();
  const [apiKey, setApiKey] = useState(storedKey);
  const viewer = useQuery<{ viewer: Viewer }>(apiKey, VIEWER, {}, []);
  const [namespace, setNamespace] = useState(() => remembered(NAMESPACE_STORAGE));
  const me = viewer.data?.viewer ?? null;

  // A namespace the key cannot read falls back to the key's first (or the default one).
  useEffect(() => {
    if (!me) return;
    if (namespace && (me.allNamespaces || me.namespaces.includes(namespace))) return;
    setNamespace(me.allNamespaces ? me.defaultNamespace : (me.namespaces[0] ?? me.defaultNamespace));
  }, [me, namespace]);
  useEffect(() => {
    if (namespace) remember(NAMESPACE_STORAGE, namespace);
  }, [namespace]);

  const options = me
    ? [...new Set([...(me.allNamespaces ? [me.defaultNamespace] : []), ...me.namespaces, namespace].filter(Boolean))].sort()
    : [];
  const props: ViewProps | null = me && namespace ? { apiKey, namespace, viewer: me, id: route.id } : null;

  return (
    <>
      <header class="top">
        <a class="brand" href={href('timeline')}>
          Mnemograph <span class="muted">memory explorer</span>
        </a>
        <nav aria-label="Views">
          {NAV.map(([view, label]) => (
            <a href={href(view)} aria-current={route.view === view ? 'page' : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <div class="who">
          {me ? (
            <>
              <NamespacePicker namespace={namespace} options={options} free={me.allNamespaces} onPick={setNamespace} />
              <span class="chip" data-testid="key-role">
                {me.name} · {me.readOnly ? 'read-only' : 'operator'}
              </span>
            </>
          ) : null}
          <KeyForm
            apiKey={apiKey}
            onKey={(key) => {
              storeKey(key);
              setApiKey(key);
            }}
          />
        </div>
      </header>
      <main id="main">
        <ErrorBox error={viewer.error} />
        {viewer.error?.code === 'UNAUTHENTICATED' ? (
          <p>Enter an API key above: the explorer calls /graphql with it, like any client.</p>
        ) : null}
        {props ? <Routed view={route.view} props={props} /> : null}
      </main>
    </>
  );
}

function Routed({ view, props }: { view: View; props: ViewProps }) {
  switch (view) {
    case 'memory':
      return <MemoryView {...props} />;
    case 'entity':
      return <EntityView {...props} />;
    case 'recall':
      return <RecallView {...props} />;
    case 'upkeep':
      return <UpkeepView {...props} />;
    default:
      return <TimelineView {...props} />;
  }
}

const root = document.getElementById('app')!;
root.textContent = ''; // the "Loading…" line of index.html
render(<App />, root);
