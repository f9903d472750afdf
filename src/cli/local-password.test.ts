import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { localPassword, passwordFile } from '../../scripts/neo4j-server.mjs';

describe('the local Neo4j password (scripts/neo4j-server.mjs)', () => {
  const homes: string[] = [];
  const freshHome = () => {
    const home = mkdtempSync(join(tmpdir(), 'mnemograph-pw-'));
    homes.push(home);
    return home;
  };
  afterEach(() => {
    for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
  });

  it('is generated at random on first use, stored owner-only in the home, and stable afterwards', () => {
    const home = freshHome();
    const password = localPassword({ home });
    expect(password).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(password).not.toBe('mnemograph-dev');
    expect(passwordFile(home)).toBe(join(home, 'password'));
    expect(readFileSync(passwordFile(home), 'utf8').trim()).toBe(password);
    expect(statSync(passwordFile(home)).mode & 0o777).toBe(0o600);
    expect(localPassword({ home })).toBe(password);
    expect(localPassword({ home: freshHome() })).not.toBe(password);
  });

  it('keeps the legacy password of a home initialised before passwords were generated', () => {
    const home = freshHome();
    mkdirSync(join(home, 'data', 'databases', 'system'), { recursive: true });
    expect(localPassword({ home })).toBe('mnemograph-dev');
  });
});
