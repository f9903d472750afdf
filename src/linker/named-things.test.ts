import { describe, expect, it } from 'vitest';
import { extractEntities } from './extract-entities.js';
import { linkMemory } from './index.js';
import { findNamedThings } from './named-things.js';
import { NER_SAMPLE } from '../../test/support/ner-sample.js';
import { scoreNer } from '../../test/support/ner-score.js';

const strong = (text: string) =>
  Object.fromEntries(
    extractEntities(text)
      .filter((e) => e.strength === 'strong')
      .map((e) => [e.canonicalName, { type: e.type, aliases: e.aliases ?? [] }]),
  );

describe('named things at write time', () => {
  it('finds services, projects, products and versioned names written in prose, typed', () => {
    expect(strong('Osprey, the invoicing service, runs on Postgres 16 and Tomasz Berg owns it.')).toMatchObject({
      osprey: { type: 'system', aliases: ['invoicing service'] },
      'postgres 16': { type: 'tool' },
      postgresql: { type: 'tool' },
    });
    expect(strong('Last week project Larkspur moved into the Quarry library.')).toMatchObject({
      larkspur: { type: 'project' },
      quarry: { type: 'tool' },
    });
    expect(strong('Project Halcyon replaces the old onboarding.')).toMatchObject({
      'project halcyon': { type: 'project', aliases: ['Halcyon'] },
    });
    expect(strong('The v2 checkout flow ships behind the `checkout_v2` flag.')).toMatchObject({
      'v2 checkout flow': { type: 'system' },
      checkout_v2: { type: 'system' },
    });
    expect(strong('Marta filed it in the acme/web-console repo.')).toMatchObject({ 'acme/web-console': { type: 'project' } });
    expect(strong('The Customer Data Platform (CDP) syncs nightly.')).toMatchObject({
      'customer data platform': { type: 'system', aliases: ['CDP'] },
    });
    expect(strong('Pegasus, formerly known as Skyline, is the booking backend.')).toMatchObject({ pegasus: { aliases: ['Skyline'] } });
    expect(strong('Our payments API is called Tollbooth.')).toMatchObject({ tollbooth: { type: 'system' } });
    expect(strong('Gemini 1.5 Pro drafts the notes; the Falcon 9 footage sits in the media-archive bucket.')).toMatchObject({
      'gemini 1.5 pro': { type: 'tool' },
      'falcon 9': { type: 'tool' },
      'media-archive': { type: 'system' },
    });
  });

  it('keeps common words, counters and adjectives from becoming entities', () => {
    const none = [
      'Version 3.2 of the SDK is out.',
      'Room 12 is booked for Chapter 3 of the review.',
      'The long-running job and the read-only database were fine.',
      'Everything is green on CI; Merge when ready.',
      'I Think We Should Ship It On Friday.',
      'OK so the build is BROKEN again.',
      "I'm learning Spanish for Christmas, Mom says.",
      'Birds sing at dawn. Summer is long.',
    ];
    for (const text of none) expect(Object.keys(strong(text)), text).toEqual([]);
  });

  it('a lowercase hyphenated adjective before a typed noun is not a name', () => {
    expect(findNamedThings('the well-known library and the high-traffic service and the user-facing app').map((t) => t.name)).toEqual([]);
    expect(findNamedThings('the billing-api service').map((t) => t.name)).toEqual(['billing-api']);
  });

  it('gives an alias as an attribute of kind alias (what the write transaction stores on the entity)', () => {
    const { attributes } = linkMemory('Zephyr (the notification service) retries failed webhooks.');
    expect(attributes.filter((a) => a.kind === 'alias')).toEqual([
      expect.objectContaining({ entityCanonicalName: 'zephyr', content: 'notification service' }),
    ]);
  });

  // Floors a little under what `npm run bench:ner` measured for the whole linker (names precision
  // 0.97, recall 0.95; 0.95 / 0.67 before the named-thing rules).
  it('keeps the linker precise on the labelled sample', () => {
    const score = scoreNer(NER_SAMPLE, (text) =>
      extractEntities(text)
        .filter((e) => e.strength === 'strong')
        .map((e) => ({ text: e.name, type: e.type === 'tool' ? 'product' : e.type })),
    );
    expect(score.names!.precision).toBeGreaterThanOrEqual(0.95);
    expect(score.names!.recall).toBeGreaterThanOrEqual(0.9);
    expect(score.system!.recall).toBeGreaterThanOrEqual(0.9);
    expect(score.project!.precision).toBeGreaterThanOrEqual(0.9);
  });

  it('runs in linear time on hostile input', () => {
    const inputs = [
      'A'.repeat(50_000),
      'a-'.repeat(25_000),
      'a.'.repeat(25_000),
      'Aa '.repeat(20_000),
      'the Aa '.repeat(10_000),
      '"Aa '.repeat(15_000),
      'a_'.repeat(25_000),
      'Aa, the a service'.repeat(3_000),
      'v1 '.repeat(20_000),
      'Aa 1 '.repeat(12_000),
      'x/'.repeat(25_000),
      `x${'1'.repeat(50_000)}`,
      `the x${'1'.repeat(50_000)} service`,
    ];
    for (const input of inputs) {
      const t0 = performance.now();
      findNamedThings(input);
      expect(performance.now() - t0, input.slice(0, 20)).toBeLessThan(1_500);
    }
  });
});
