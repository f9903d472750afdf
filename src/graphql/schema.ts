import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The SDL is the contract; it is read once from the repository root. */
export const typeDefs = readFileSync(fileURLToPath(new URL('../../schema.graphql', import.meta.url)), 'utf8');
