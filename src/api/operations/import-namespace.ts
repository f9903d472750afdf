import type { ImportReport } from '../../knowledge/index.js';
import type { Caller } from '../caller.js';

/**
 * Lines of an export written into a namespace (docs/export-import.md): the export's header line
 * first in every call, then up to MAX_IMPORT_LINES - 1 node and edge lines. Running the same lines
 * again changes nothing, so an import that stopped is resumed by sending its lines again.
 */
export function importNamespace(caller: Caller, request: { namespace?: string | null; lines: readonly string[] }): Promise<ImportReport> {
  const namespace = caller.namespaceFor(request.namespace, 'write');
  return caller.services.transfer.importLines(namespace, request.lines);
}
