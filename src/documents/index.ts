export { DocumentService, DOCUMENT_ACTOR, type DocumentSettings, type IngestInput } from './document-service.js';
export {
  anyAddress,
  fetchUrl,
  FetchError,
  publicAddressesOnly,
  type AddressPolicy,
  type FetchedDocument,
  type Resolver,
} from './url-fetcher.js';
export { textWindows, type TextWindow } from './windows.js';
export { HtmlText } from './html-text.js';
export type { DocumentRecord, DocumentStatus, DocumentPage } from '../db/index.js';
