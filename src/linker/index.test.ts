import { describe, it, expect } from 'vitest';
import { linkMemory } from './index.js';

describe('linkMemory', () => {
  it('links the decision example: strong tools, decision flag and a constraint on Redis', () => {
    const result = linkMemory('We decided to use Redis over Memcached for sessions');
    expect(result.isDecision).toBe(true);
    const redis = result.entities.find((e) => e.canonicalName === 'redis');
    const memcached = result.entities.find((e) => e.canonicalName === 'memcached');
    expect(redis).toMatchObject({ name: 'Redis', type: 'tool', strength: 'strong' });
    expect(memcached).toMatchObject({ name: 'Memcached', type: 'tool', strength: 'strong' });
    expect(result.attributes).toContainEqual(
      expect.objectContaining({ entityCanonicalName: 'redis', aspect: 'decisions', kind: 'constraint', importance: 0.85 }),
    );
  });

  it('links files and identifiers', () => {
    const { entities, isDecision } = linkMemory('Fixed handleLogin() in src/auth/login.ts');
    expect(isDecision).toBe(false);
    expect(entities.map((e) => [e.canonicalName, e.signal, e.strength])).toEqual([
      ['handlelogin', 'identifier', 'strong'],
      ['src/auth/login.ts', 'file', 'strong'],
    ]);
  });

  it('makes a chat speaker strong, not a heading label, and produces no junk', () => {
    const { entities, attributes } = linkMemory('Caroline: I went to the LGBTQ support group yesterday');
    const caroline = entities.find((e) => e.canonicalName === 'caroline');
    expect(caroline?.strength).toBe('strong');
    const names = entities.map((e) => e.canonicalName);
    for (const junk of ['i', 'yesterday', 'the', 'support', 'group']) expect(names).not.toContain(junk);
    expect(entities.filter((e) => e.canonicalName !== 'caroline').every((e) => e.strength === 'weak')).toBe(true);
    expect(linkMemory('Summary: the deploy went fine').entities.map((e) => e.canonicalName)).not.toContain('summary');
    expect(attributes).toEqual([]);
  });

  it('returns nothing for empty or entity-free text', () => {
    expect(linkMemory('')).toEqual({ entities: [], attributes: [], isDecision: false });
    expect(linkMemory('it was a nice day and we had fun')).toEqual({ entities: [], attributes: [], isDecision: false });
  });

  it('stays linear on pathological input', () => {
    for (const text of [
      'a.'.repeat(20_000),
      'a/'.repeat(20_000),
      'Aaa '.repeat(20_000),
      'picked ' + 'a '.repeat(20_000),
      'x'.repeat(60_000),
    ]) {
      // CPU time of this process, the faster of two runs: on a shared 2-core machine wall time
      // mostly measures the other processes; a quadratic pattern takes seconds of CPU here.
      const took = () => {
        const c0 = process.cpuUsage();
        linkMemory(text);
        const c = process.cpuUsage(c0);
        return (c.user + c.system) / 1000;
      };
      expect(Math.min(took(), took())).toBeLessThan(1000);
    }
  });

  it('links a 2,000-character memory', () => {
    const sentence =
      'Caroline said we decided to use Redis over Memcached; handleLogin() in src/auth/login.ts calls parse_config(path), see https://docs.example.com and ask @bob. ';
    const text = sentence.repeat(Math.ceil(2000 / sentence.length)).slice(0, 2000);
    const result = linkMemory(text);
    expect(result.isDecision).toBe(true);
    expect(result.entities.length).toBeGreaterThan(5);
    expect(result.attributes.length).toBeLessThanOrEqual(10);
  });
});
