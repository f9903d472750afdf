export { DocumentService, type IngestInput } from './document-service.js';
export { anyAddress, publicAddressesOnly, type AddressPolicy, type Resolver } from './url-fetcher.js';
export type { DocumentRecord } from '../db/index.js';
