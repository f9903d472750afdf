import fs from 'node:fs';
import path from 'node:path';
import type { Services } from '../../src/app.js';
import { createEmbedder } from '../../src/embedding/index.js';
import { E5_MODEL_NAME } from '../../src/embedding/model-profiles.js';
import { beforeEach, describe, expect, integrationTest } from '../support/fixture.js';

// multilingual-e5-small reads about 100 languages: a memory written in one is found by a question in
// another, through the vector leg (the keyword leg shares no word with it). CI provisions the model
// (npm run model:provision builds both); the file skips only where it is not provisioned.
const MODEL_DIR = process.env.EMBEDDING_MODEL_DIR ?? new URL('../../.models', import.meta.url).pathname;
const provisioned = fs.existsSync(path.join(MODEL_DIR, E5_MODEL_NAME, 'onnx', 'model.onnx'));

const it = integrationTest({ app: { embedder: createEmbedder({ modelName: E5_MODEL_NAME, modelDir: MODEL_DIR }) } });

/** Memories in one language, with distractors in the same languages on other topics. */
const FOREIGN = {
  sister: 'Mi hermana Lucía se mudó a Valencia y ahora trabaja como enfermera en un hospital.',
  dog: 'Unser Hund Bruno frisst am liebsten Karotten und schläft nachts im Flur.',
  birthday: '来月、京都で祖母の八十歳の誕生日を家族みんなで祝います。',
};
const FOREIGN_DISTRACTORS = [
  'El tren a Madrid sale todos los días a las ocho de la mañana.',
  'Die Heizung im Büro ist seit Montag kaputt und der Techniker kommt erst nächste Woche.',
  '新しいノートパソコンのバッテリーはすぐに切れてしまう。',
  'The quarterly budget review moved to Thursday afternoon.',
];
const ENGLISH = {
  sister: 'My sister moved to the coast last spring and now works as a nurse in a hospital.',
  dog: 'Our dog loves eating carrots and sleeps in the hallway at night.',
  birthday: "Next month the whole family celebrates grandmother's eightieth birthday in Kyoto.",
};
const ENGLISH_DISTRACTORS = [
  'The train to the capital leaves every morning at eight.',
  'The office heating has been broken since Monday; the technician comes next week.',
  'The battery of the new laptop runs out very quickly.',
  'La reunión de presupuesto trimestral se movió al jueves.',
];

describe.skipIf(!provisioned)(
  `recall across languages with ${E5_MODEL_NAME} (skipped when not provisioned: npm run model:provision)`,
  () => {
    let services: Services;
    beforeEach(({ services: fixture }) => {
      services = fixture;
    });

    const store = async (namespace: string, contents: string[]) => {
      const outcomes = await services.remember.rememberBatch(contents.map((content) => ({ content, namespace })));
      for (const o of outcomes) expect(o.error).toBeUndefined();
    };
    const top = async (namespace: string, query: string) => {
      const { items } = await services.recall.recall({ query, namespace, limit: 3, tokenBudget: null, trackAccess: false });
      return items[0]?.memory.content;
    };

    it('finds a memory written in Spanish, German or Japanese by an English question', async ({ namespace }) => {
      await store(namespace, [...Object.values(FOREIGN), ...FOREIGN_DISTRACTORS]);
      expect(await top(namespace, 'Where does my sister work now?')).toBe(FOREIGN.sister);
      expect(await top(namespace, 'What does our dog like to eat?')).toBe(FOREIGN.dog);
      expect(await top(namespace, 'Which family celebration is planned for next month?')).toBe(FOREIGN.birthday);
    });

    it('finds a memory written in English by a Spanish, German or Japanese question', async ({ namespace }) => {
      await store(namespace, [...Object.values(ENGLISH), ...ENGLISH_DISTRACTORS]);
      expect(await top(namespace, '¿Dónde trabaja ahora mi hermana?')).toBe(ENGLISH.sister);
      expect(await top(namespace, 'Was frisst unser Hund am liebsten?')).toBe(ENGLISH.dog);
      expect(await top(namespace, '来月、家族でどんなお祝いをしますか？')).toBe(ENGLISH.birthday);
    });
  },
);
