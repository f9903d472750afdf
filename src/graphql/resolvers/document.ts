import { documentChunks, documentProgress } from '../../api/index.js';
import type { DocumentResolvers } from '../generated/types.js';

export const Document: DocumentResolvers = {
  progress: (d) => documentProgress(d),
  chunks: (d, { first }, { caller }) => documentChunks(caller, d.id, first),
};
