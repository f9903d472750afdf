import type { Viewer } from './queries';

/** What every view gets: who is asking, with which key, in which namespace, about which id. */
export interface ViewProps {
  apiKey: string;
  namespace: string;
  viewer: Viewer;
  id: string | null;
}
