import { useEffect, useState } from 'preact/hooks';

export type View = 'timeline' | 'memory' | 'entity' | 'recall' | 'upkeep';
export interface Route {
  view: View;
  id: string | null;
}

const VIEWS: readonly View[] = ['timeline', 'memory', 'entity', 'recall', 'upkeep'];

/** `#/memory/<id>` and the like; anything else is the timeline. */
export function parseRoute(hash: string): Route {
  const [, view = '', id = ''] = hash.split('/');
  const known = VIEWS.find((v) => v === view) ?? 'timeline';
  return { view: known, id: id ? decodeURIComponent(id) : null };
}

export function href(view: View, id?: string): string {
  return id ? `#/${view}/${encodeURIComponent(id)}` : `#/${view}`;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
