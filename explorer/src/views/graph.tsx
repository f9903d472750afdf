import type { Core, ElementDefinition } from 'cytoscape';
import { useEffect, useRef, useState } from 'preact/hooks';
import { gql, type ApiError } from '../api';
import { ErrorBox } from '../components';
import { NEIGHBORS, type EntityRef, type Neighborhood } from '../queries';
import { href } from '../route';

// Cytoscape adds an inline <style> (which the page's CSP refuses) unless an element with this id
// exists; its one rule (the container's position) is in style.css instead.
const CYTOSCAPE_STYLESHEET_ID = '__________cytoscape_stylesheet';

function claimCytoscapeStylesheet(): void {
  if (document.getElementById(CYTOSCAPE_STYLESHEET_ID)) return;
  const marker = document.createElement('meta');
  marker.id = CYTOSCAPE_STYLESHEET_ID;
  document.head.append(marker);
}

/** The drawing stops growing here; the list below still names every node shown. */
const MAX_NODES = 150;
const MAX_FIT_ZOOM = 1.2;

const STYLE = [
  {
    selector: 'node',
    style: {
      label: 'data(label)',
      'font-size': 11,
      color: '#1b1f24',
      'background-color': '#5b7fa6',
      width: 18,
      height: 18,
      'text-valign': 'bottom',
      'text-margin-y': 3,
    },
  },
  { selector: 'node.center', style: { 'background-color': '#b3541e', width: 26, height: 26, 'font-weight': 'bold' } },
  { selector: 'node.expanded', style: { 'border-width': 2, 'border-color': '#1b1f24' } },
  {
    selector: 'edge',
    style: {
      width: 1.5,
      'line-color': '#8a99a8',
      'target-arrow-color': '#8a99a8',
      'target-arrow-shape': 'triangle',
      'curve-style': 'bezier',
      label: 'data(label)',
      'font-size': 9,
      color: '#444c56',
      'text-rotation': 'autorotate',
    },
  },
  { selector: 'edge.comention', style: { 'line-style': 'dashed', 'target-arrow-shape': 'none', 'line-color': '#c9a227' } },
];

interface Props {
  apiKey: string;
  center: EntityRef;
  /** Entities mentioned in the same memories as the center, with how often. */
  coMentions: Array<[EntityRef, number]>;
}

/** Relations and co-mentions around an entity, drawn by Cytoscape and grown one hop per click. */
export function EntityGraph({ apiKey, center, coMentions }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const cy = useRef<Core | null>(null);
  const [nodes, setNodes] = useState<EntityRef[]>([center]);
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);

  const add = (elements: ElementDefinition[]) => {
    const graph = cy.current;
    if (!graph) return;
    const fresh = elements.filter((el) => graph.getElementById(el.data.id!).empty());
    const room = MAX_NODES - graph.nodes().length;
    const newNodes = fresh.filter((el) => el.group === 'nodes').slice(0, Math.max(0, room));
    const allowed = new Set([...graph.nodes().map((n) => n.id()), ...newNodes.map((n) => n.data.id!)]);
    const newEdges = fresh.filter((el) => el.group === 'edges' && allowed.has(el.data.source) && allowed.has(el.data.target));
    graph.add([...newNodes, ...newEdges]);
    // Rings by hops from the center: deterministic, and each expansion lands on the next ring.
    graph
      .layout({ name: 'breadthfirst', roots: [center.id], circle: true, spacingFactor: 1.25, animate: false, fit: true, padding: 40 })
      .run();
    // A few nodes would otherwise be fitted at the largest zoom, labels and all.
    if (graph.zoom() > MAX_FIT_ZOOM) {
      graph.zoom(MAX_FIT_ZOOM);
      graph.center();
    }
    setNodes(graph.nodes().map((n) => ({ id: n.id(), name: n.data('label') as string, type: n.data('type') as string })));
  };

  const expand = async (id: string) => {
    if (expanded.has(id) || busy) return;
    setBusy(true);
    setError(null);
    try {
      const { neighbors } = await gql<{ neighbors: Neighborhood }>(apiKey, NEIGHBORS, { id });
      const node = (e: EntityRef): ElementDefinition => ({ group: 'nodes', data: { id: e.id, label: e.name, type: e.type } });
      add([
        node(neighbors.center),
        ...neighbors.entities.map(node),
        ...neighbors.relations.map(
          (r): ElementDefinition => ({
            group: 'edges',
            data: { id: `r:${r.source.id}>${r.type}>${r.target.id}`, source: r.source.id, target: r.target.id, label: r.type },
          }),
        ),
      ]);
      cy.current?.getElementById(id).addClass('expanded');
      setExpanded((s) => new Set(s).add(id));
    } catch (e) {
      setError(e as ApiError);
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    let disposed = false;
    // Loaded on the first entity page only: the rest of the explorer does without it.
    void import('cytoscape').then(({ default: cytoscape }) => {
      if (disposed || !container.current) return;
      claimCytoscapeStylesheet();
      const graph = cytoscape({ container: container.current, style: STYLE as never, minZoom: 0.3, maxZoom: 3, wheelSensitivity: 0.3 });
      cy.current = graph;
      graph.add({ group: 'nodes', data: { id: center.id, label: center.name, type: center.type }, classes: 'center' });
      add([
        ...coMentions.map(([e]): ElementDefinition => ({ group: 'nodes', data: { id: e.id, label: e.name, type: e.type } })),
        ...coMentions.map(
          ([e, n]): ElementDefinition => ({
            group: 'edges',
            data: { id: `c:${center.id}~${e.id}`, source: center.id, target: e.id, label: `co-mentioned ×${n}` },
            classes: 'comention',
          }),
        ),
      ]);
      graph.on('tap', 'node', (event) => void expandRef.current(event.target.id()));
      void expandRef.current(center.id);
    });
    return () => {
      disposed = true;
      cy.current?.destroy();
      cy.current = null;
    };
  }, [center.id]);

  // The tap handler is bound once; it always calls the latest expand.
  const expandRef = useRef(expand);
  expandRef.current = expand;

  return (
    <div class="graph">
      <div
        ref={container}
        class="graph-canvas"
        role="img"
        aria-label={`Relations and co-mentions around ${center.name}: ${nodes.length} entities`}
        data-testid="graph-canvas"
      />
      <ErrorBox error={error} />
      <p class="muted">
        Solid arrows: relations; dashed: mentioned in the same memories. Click a node, or Expand below, to add its neighbours (one hop).
        {nodes.length >= MAX_NODES ? ` The drawing stops at ${MAX_NODES} entities.` : ''}
      </p>
      <ul class="graph-nodes" data-testid="graph-nodes">
        {nodes.map((n) => (
          <li>
            <a href={href('entity', n.id)}>{n.name}</a> <span class="muted">{n.type}</span>{' '}
            {expanded.has(n.id) ? (
              <span class="muted">expanded</span>
            ) : (
              <button type="button" class="small" disabled={busy} onClick={() => void expand(n.id)} aria-label={`Expand ${n.name}`}>
                Expand
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
