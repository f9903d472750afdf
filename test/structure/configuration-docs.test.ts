import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/v3';
import { CONFIGURATION_DOCS_PATH, describeSetting, renderConfigurationDocs } from '../../scripts/config-docs.js';

describe('docs/configuration.md', () => {
  it('is what `npm run docs:config` writes from the schema (run it after changing src/config/schema.ts)', () => {
    expect(readFileSync(CONFIGURATION_DOCS_PATH, 'utf8')).toBe(renderConfigurationDocs());
  });

  it('reads type, bounds and default from the zod type, and refuses a setting without a description', () => {
    const port = z.coerce.number().int().min(1).max(9).default(4).describe('a port');
    expect(describeSetting('PORT', port)).toEqual({ type: 'integer in [1, 9]', default: '`4`', description: 'a port.' });
    expect(() => describeSetting('PORT', z.coerce.number().default(4))).toThrow(/PORT has no description/);
  });
});
