import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Several writes and a worker run each: generous per-test budgets for a loaded CI machine.
import type { Services } from '../../src/app.js';
import { extraction, scriptStages, startDeepPath, waitForJob, type DeepPathRig } from '../support/deep-path.js';
import { graphqlClient } from '../support/graphql.js';
import { cleanNamespace, testServices, uniqueNamespace } from '../support/services.js';

// Generated fakes in real token formats; none is a live credential.
const GITHUB = `ghp_${'Zq8'.repeat(12)}`;
const AWS = 'AKIAQ7ZX3MPL5KD2WR4T';
const OPENAI = `sk-proj-${'Hb4nR7'.repeat(6)}`;
const SLACK = `xoxb-1234567890-0987654321-${'Kp3'.repeat(8)}`;
const STRIPE = `sk_live_${'Wm5y'.repeat(6)}`;
const HF = `hf_${'Tg6Lq'.repeat(7)}`;
const NPM = `npm_${'Rt2Yc'.repeat(7)}a`;
const PROSE_PASSWORD = 'Sq7!trellis';
const PIN = '80417';
const URL_PASSWORD = 'Vq9xMirabel';
const SECRETS = [GITHUB, AWS, OPENAI, SLACK, STRIPE, HF, NPM, PROSE_PASSWORD, URL_PASSWORD];

const REMEMBER = `
mutation Remember($input: RememberInput!) {
  remember(input: $input) { memory { id tags source externalId sessionId who why metadata } redactions { kind count } }
}`;
const UPDATE = `mutation Update($id: ID!, $content: String!) { updateMemory(id: $id, content: $content) { id content } }`;
const FORGET = `mutation Forget($id: ID!, $reason: String) { forget(id: $id, reason: $reason) { id } }`;

/** Every property of every node in the namespace and of every relationship touching one. */
const DUMP = `
MATCH (n) WHERE n.namespace = $namespace
OPTIONAL MATCH (n)-[r]-()
RETURN properties(n) AS node, collect(properties(r)) AS rels`;

async function storedText(services: Services, namespace: string): Promise<string> {
  const rows = await services.executor.read<{ node: unknown; rels: unknown[] }>('test.dump', DUMP, { namespace });
  expect(rows.length).toBeGreaterThan(0);
  return JSON.stringify(rows);
}

function expectNoSecrets(stored: string, secrets: readonly string[]): void {
  for (const secret of secrets) {
    expect(stored, `stored graph contains ${secret}`).not.toContain(secret);
    expect(stored.toLowerCase(), `stored graph contains ${secret} (lowercased)`).not.toContain(secret.toLowerCase());
  }
}

describe('every stored field passes the redactor (API writes)', () => {
  let services: Services;
  let gql: Awaited<ReturnType<typeof graphqlClient>>;
  const namespace = uniqueNamespace('redact-fields');

  beforeAll(async () => {
    services = testServices({ DEFAULT_NAMESPACE: namespace });
    await services.embedder.load();
    gql = await graphqlClient(services);
  });
  afterAll(async () => {
    await cleanNamespace(services, namespace);
    await gql.stop();
    await services.executor.close();
  });

  it('redacts content, tags, source, externalId, sessionId, who, why, metadata, the update and the forget reason', async () => {
    const input = {
      namespace,
      content: `Deploy notes for the billing service: token ${GITHUB} and the pin is ${PIN}.`,
      tags: ['deploy', AWS, `slack:${SLACK}`],
      source: `https://bot:${URL_PASSWORD}@hooks.example.com/notes`,
      externalId: `msg-${OPENAI}`,
      sessionId: `session ${STRIPE}`,
      who: `ops (password: ${PROSE_PASSWORD})`,
      why: `rotating ${HF}`,
      metadata: { channel: 'ops', auth: { header: `Bearer ${NPM}`, list: [STRIPE, 42, true] }, [GITHUB]: 'key as secret' },
    };
    const { remember } = await gql.data(REMEMBER, { input });
    const returned = JSON.stringify(remember.memory);
    expectNoSecrets(returned, [...SECRETS, PIN]);
    expect(remember.memory.tags).toEqual(expect.arrayContaining(['deploy', '[aws_access_key]']));
    expect(remember.memory.source).toBe('https://bot:[URL_PASSWORD]@hooks.example.com/notes');
    // Everything under a secret-named key (`auth`) is masked whole, numbers included; booleans stay.
    expect(remember.memory.metadata).toMatchObject({
      channel: 'ops',
      auth: { header: '[SECRET]', list: ['[SECRET]', '[SECRET]', true] },
      '[GITHUB_TOKEN]': 'key as secret',
    });
    const kinds = remember.redactions.map((r: { kind: string }) => r.kind);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'GITHUB_TOKEN',
        'PIN',
        'AWS_ACCESS_KEY',
        'SLACK_TOKEN',
        'URL_PASSWORD',
        'API_KEY',
        'STRIPE_KEY',
        'PASSWORD',
        'HUGGINGFACE_TOKEN',
        'SECRET',
      ]),
    );

    const id = remember.memory.id as string;
    const { updateMemory } = await gql.data(UPDATE, { id, content: `Rotated: the new key is ${OPENAI}; old one ${GITHUB} revoked.` });
    expect(updateMemory.content).toContain('[API_KEY]');
    await gql.data(FORGET, { id, reason: `leaked ${STRIPE} and my password is ${PROSE_PASSWORD}` });

    const stored = await storedText(services, namespace);
    expect(stored).toContain('[STRIPE_KEY]');
    expectNoSecrets(stored, [...SECRETS, `pin is ${PIN}`]);
  }, 120_000);
});

describe('text the model derives passes the redactor (deep path)', () => {
  let rig: DeepPathRig;
  const namespace = uniqueNamespace('redact-llm');

  beforeAll(async () => {
    rig = await startDeepPath(namespace, { HINTS_ENABLED: 'true' });
  });
  afterAll(async () => {
    await rig.close();
  });

  it('redacts extracted facts, entity names, relationships, decision reasons and hints', async () => {
    const { services, fake, worker } = rig;
    scriptStages(fake, {
      extract: () =>
        extraction(
          [
            [`The billing service authenticates with ${GITHUB} on deploy.`, 'fact', 0.95],
            [`Maya said the staging password is ${PROSE_PASSWORD} for now.`, 'fact', 0.9],
          ],
          [
            ['billing service', `uses token ${OPENAI}`, 'GitHub'],
            [`key ${AWS}`, 'belongs to', 'billing service'],
          ],
        ),
      decide: () => JSON.stringify({ action: 'ADD', targetId: null, confidence: 0.9, reason: `new credential ${SLACK} seen` }),
      hints: () =>
        JSON.stringify({
          questions: [`Which token is ${HF}?`, `What is the staging password ${PROSE_PASSWORD}?`, 'Where does billing deploy?'],
        }),
    });

    const source = await services.remember.remember({
      content: 'The billing service deploys from GitHub Actions with a bot account.',
      namespace,
    });
    worker.start();
    await waitForJob(services, source.memory.id, ['completed']);
    await waitForJob(services, source.memory.id, ['completed'], { kind: 'hints' });

    const stored = await storedText(services, namespace);
    expect(stored).toContain('[GITHUB_TOKEN]');
    expectNoSecrets(stored, SECRETS);
  }, 120_000);
});
