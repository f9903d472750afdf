import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The production source files under `dir` (src/): every .ts file but tests and generated code. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}
