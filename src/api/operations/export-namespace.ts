import type { ExportPage } from '../../knowledge/index.js';
import type { Caller } from '../caller.js';

/**
 * One page of a namespace's export as JSON Lines (docs/export-import.md): the header, up to
 * `first` lines, and the cursor of the next page (null at the end). A read: the caller needs read
 * access to the namespace.
 */
export function exportNamespace(
  caller: Caller,
  request: { namespace?: string | null; after?: string | null; first?: number | null; vectors?: boolean | null },
): Promise<ExportPage> {
  const namespace = caller.namespaceFor(request.namespace, 'read');
  return caller.services.transfer.exportPage(namespace, { after: request.after, first: request.first, vectors: request.vectors });
}
