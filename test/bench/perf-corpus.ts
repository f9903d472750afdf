/**
 * Deterministic, realistic memory streams for the speed benchmarks (remember / recall): an
 * engineering team's notes — decisions, incidents, metrics, stand-ups, runbooks, preferences,
 * customer reports — plus chat turns, built from a seeded PRNG so every run writes the same data.
 * Every generated content is distinct (exact duplicates are regenerated); contents are 100–300
 * characters, i.e. one chunk each.
 */
import type { RememberInput } from '../../src/write/validate-input.js';

// ---------- PRNG ----------

/** mulberry32: tiny, fast, good enough for test data; same seed → same sequence. */
export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  return { next, int, pick, chance: (p: number) => next() < p };
}

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

// ---------- vocabulary ----------

export const PEOPLE = [
  'Priya Raman',
  'Marcus Chen',
  'Sofia Alvarez',
  'Tomasz Nowak',
  'Aisha Bello',
  'Lukas Becker',
  'Hannah Kim',
  'Diego Ortiz',
  'Mei Tanaka',
  'Oliver Grant',
  'Fatima Haddad',
  'Jonas Lindqvist',
  'Chloe Martin',
  'Ravi Patel',
  'Elena Petrova',
  'Samuel Osei',
  'Yuki Sato',
  'Noah Fischer',
  'Amara Nwosu',
  'Gabriel Costa',
  'Ingrid Halvorsen',
  'Kenji Watanabe',
  'Leila Farouk',
  'Mateo Rossi',
  'Zoe Dubois',
  'Arjun Mehta',
  'Clara Jensen',
  'Ibrahim Yilmaz',
  'Nina Kowalski',
  'Victor Lemaire',
  'Sara Lindgren',
  'Daniel Reyes',
  'Anika Shah',
  'Felix Wagner',
  'Lucia Moreno',
  'Henrik Olsen',
  'Maya Goldberg',
  'Omar Siddiqui',
  'Rosa Delgado',
  'Theo Laurent',
] as const;

export const PROJECTS = [
  'Atlas',
  'Helios',
  'Orion',
  'Nimbus',
  'Zephyr',
  'Kestrel',
  'Borealis',
  'Quasar',
  'Meridian',
  'Cobalt',
  'Lighthouse',
  'Tundra',
  'Sequoia',
  'Polaris',
  'Juniper',
  'Falcon',
  'Vega',
  'Ember',
  'Harbor',
  'Mosaic',
] as const;

export const SYSTEMS = [
  'billing service',
  'auth gateway',
  'search indexer',
  'notification worker',
  'payments API',
  'ingestion pipeline',
  'feature-flag service',
  'reporting dashboard',
  'mobile app',
  'admin console',
  'checkout flow',
  'export job',
  'rate limiter',
  'session store',
  'webhook dispatcher',
  'recommendation engine',
  'audit log',
  'onboarding wizard',
] as const;

export const TOOLS = [
  'Redis',
  'PostgreSQL',
  'Kafka',
  'Kubernetes',
  'Terraform',
  'Docker',
  'Elasticsearch',
  'RabbitMQ',
  'MongoDB',
  'Nginx',
  'GraphQL',
  'TypeScript',
  'Python',
  'Go',
  'Grafana',
  'Prometheus',
  'Sentry',
  'Datadog',
  'GitHub Actions',
  'Airflow',
  'Snowflake',
  'dbt',
  'Playwright',
  'Vitest',
  'Vite',
  'Neo4j',
  'Memcached',
  'SQLite',
  'FastAPI',
  'Django',
] as const;

const TEAMS = ['platform', 'payments', 'growth', 'data', 'mobile', 'infra', 'security', 'search', 'frontend', 'SRE'] as const;
const CUSTOMERS = [
  'Acme Corp',
  'Globex',
  'Initech',
  'Umbrella Health',
  'Hooli',
  'Stark Logistics',
  'Wayne Retail',
  'Soylent Foods',
  'Vandelay Imports',
  'Tyrell Labs',
] as const;
const METRICS = [
  'p95 latency',
  'error rate',
  'cache hit ratio',
  'build time',
  'memory usage',
  'cold start time',
  'throughput',
  'conversion rate',
  'queue depth',
  'CPU usage',
] as const;
const CITIES = [
  'Berlin',
  'Lisbon',
  'Toronto',
  'Bangalore',
  'Austin',
  'Warsaw',
  'Nairobi',
  'Tokyo',
  'Oslo',
  'Madrid',
  'Seoul',
  'Dublin',
] as const;
const CHANNELS = ['eng-platform', 'incidents', 'deploys', 'payments-dev', 'data-eng', 'random', 'release-train', 'oncall'] as const;
const TICKET_PREFIXES = ['PLAT', 'PAY', 'GROW', 'DATA', 'MOB', 'INFRA', 'SEC', 'SRCH'] as const;
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'] as const;

const REASONS = [
  'the managed offering is cheaper at our volume',
  'it already runs in production for two other teams',
  'the on-call load was getting out of hand',
  'the licence terms changed',
  'we need exactly-once delivery',
  'the old client library is unmaintained',
  'benchmarks showed half the tail latency',
  'nobody on the team knows the old stack anymore',
  'it simplifies the local dev setup',
  'compliance asked for encryption at rest',
  'the migration path is incremental',
  'it removes a whole class of cache invalidation bugs',
] as const;
const SYMPTOMS = [
  'returned 502s',
  'timed out on writes',
  'dropped messages',
  'served stale data',
  'ran out of connections',
  'leaked memory',
  'double-charged a handful of users',
  'stopped consuming from the queue',
  'spiked to 100% CPU',
  'failed health checks',
] as const;
const CAUSES = [
  'a config change that halved the pool size',
  'an expired TLS certificate',
  'a schema migration that locked the orders table',
  'a noisy neighbour on the shared node pool',
  'a retry storm from the mobile clients',
  'a missing index on the events table',
  'a bad feature flag rollout',
  'DNS caching in the sidecar',
  'an upstream provider outage',
  'a deploy that skipped the canary stage',
] as const;
const WORK_ITEMS = [
  'migration',
  'rollout',
  'beta',
  'load test',
  'security review',
  'API redesign',
  'data backfill',
  'cost audit',
  'launch',
  'refactor',
] as const;
const REVIEW_STYLES = [
  'small PRs under 300 lines',
  'tests next to the code they cover',
  'explicit error types over string messages',
  'squash merges with a clear summary',
  'design docs before any new service',
  'feature flags for anything user-facing',
  'pairing on tricky migrations',
  'async reviews within one business day',
] as const;
const INSIGHTS = [
  'dual writes need a reconciliation job from day one',
  'load tests must use production-shaped data or they lie',
  'canary deploys caught three bad releases this quarter',
  'alert on symptoms, not on causes',
  'a runbook nobody has rehearsed is a wish list',
  'idempotency keys saved us during the retry storm',
  'caching the wrong layer made invalidation impossible',
  'schema changes go out in expand-and-contract steps',
  'small batches keep the queue latency flat',
] as const;
const TASKS = [
  'run the integration tests locally',
  'rotate the database credentials',
  'add a new feature flag',
  'replay a dead-lettered message',
  'profile a slow endpoint',
  'bump the base image',
  'request access to the production cluster',
  'backfill a missing partition',
  'roll back a bad deploy',
  'add a dashboard panel',
] as const;

// ---------- helpers ----------

const BASE_DAY = Date.UTC(2024, 0, 1);
const DAY_MS = 86_400_000;

function firstName(person: string): string {
  return person.split(' ')[0]!;
}

/** A person as a team would write them: mostly first names, sometimes the full name. */
function who(r: Rng, person: string): string {
  return r.chance(0.35) ? person : firstName(person);
}

function dateText(r: Rng, day: number): string {
  const d = new Date(BASE_DAY + day * DAY_MS);
  switch (r.int(0, 4)) {
    case 0:
      return d.toISOString().slice(0, 10);
    case 1:
      return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
    case 2:
      return `${r.pick(WEEKDAYS)} the ${ordinal(d.getUTCDate())}`;
    case 3:
      return `the end of sprint ${r.int(12, 96)}`;
    default:
      return `Q${r.int(1, 4)} ${2024 + r.int(0, 1)}`;
  }
}

function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
}

function ticket(r: Rng): string {
  return `${r.pick(TICKET_PREFIXES)}-${r.int(100, 9999)}`;
}

function version(r: Rng): string {
  return `v${r.int(1, 9)}.${r.int(0, 40)}.${r.int(0, 20)}`;
}

function otherThan<T>(r: Rng, items: readonly T[], not: T): T {
  let x = r.pick(items);
  while (x === not) x = r.pick(items);
  return x;
}

// ---------- sentence templates ----------

interface Sentence {
  text: string;
  /** The main subject: the entity a question about this sentence would name. */
  subject: string;
  kind: string;
}

type Template = (r: Rng, day: number) => Sentence;

const TEMPLATES: Template[] = [
  (r) => {
    const p = r.pick(PEOPLE),
      t = r.pick(TOOLS),
      t2 = otherThan(r, TOOLS, t),
      s = r.pick(SYSTEMS);
    return {
      kind: 'decision',
      subject: t,
      text: `${who(r, p)} decided to use ${t} for the ${s} instead of ${t2} because ${r.pick(REASONS)}.`,
    };
  },
  (r, day) => {
    const pr = r.pick(PROJECTS),
      t = r.pick(TOOLS),
      t2 = otherThan(r, TOOLS, t),
      p = r.pick(PEOPLE);
    return {
      kind: 'decision',
      subject: pr,
      text: `We chose ${t} over ${t2} for Project ${pr}; ${who(r, p)} owns the rollout, target ${dateText(r, day + r.int(7, 60))}.`,
    };
  },
  (r, day) => {
    const s = r.pick(SYSTEMS),
      t = r.pick(TOOLS);
    return {
      kind: 'decision',
      subject: s,
      text: `Architecture decision (${ticket(r)}): the ${s} moves to ${t} by ${dateText(r, day + r.int(14, 120))}, no new features until then.`,
    };
  },
  (r, day) => {
    const s = r.pick(SYSTEMS),
      p = r.pick(PEOPLE);
    return {
      kind: 'incident',
      subject: s,
      text: `Incident ${ticket(r)} on ${dateText(r, day)}: the ${s} ${r.pick(SYMPTOMS)} for ${r.int(3, 95)} minutes after ${r.pick(CAUSES)}. ${who(r, p)} rolled back to ${version(r)}.`,
    };
  },
  (r) => {
    const team = r.pick(TEAMS),
      p = r.pick(PEOPLE),
      p2 = otherThan(r, PEOPLE, p),
      pr = r.pick(PROJECTS);
    return {
      kind: 'standup',
      subject: p,
      text: `In the ${team} stand-up ${who(r, p)} said the ${pr} ${r.pick(WORK_ITEMS)} is blocked on ${firstName(p2)}'s review of PR #${r.int(1000, 9999)}.`,
    };
  },
  (r, day) => {
    const m = r.pick(METRICS),
      s = r.pick(SYSTEMS),
      a = r.int(20, 900),
      b = Math.max(1, Math.round(a * (0.2 + r.next() * 0.7)));
    const unit =
      m.includes('ratio') || m.includes('rate') || m.includes('CPU')
        ? '%'
        : m.includes('memory')
          ? ' MB'
          : m.includes('depth') || m === 'throughput'
            ? ''
            : ' ms';
    return {
      kind: 'metric',
      subject: s,
      text: `The ${m} of the ${s} went from ${a}${unit} to ${b}${unit} after ${r.pick(['the connection pool fix', 'enabling HTTP/2', 'the new index', 'moving to batch writes', 'the cache warm-up job', 'dropping the ORM for raw queries'])} (${dateText(r, day)}).`,
    };
  },
  (r) => {
    const p = r.pick(PEOPLE);
    return {
      kind: 'preference',
      subject: p,
      text: `${who(r, p)} prefers ${r.pick(REVIEW_STYLES)} and wants updates async in #${r.pick(CHANNELS)} rather than in meetings.`,
    };
  },
  (r) => {
    const s = r.pick(SYSTEMS),
      t = r.pick(TOOLS);
    return {
      kind: 'procedure',
      subject: s,
      text: `To deploy the ${s}, run \`make deploy ENV=${r.pick(['staging', 'prod', 'canary'])}\` from the ${s.split(' ')[0]} repo, then watch the ${t} dashboard for ${r.int(10, 30)} minutes.`,
    };
  },
  (r) => {
    const t = r.pick(TOOLS),
      p = r.pick(PEOPLE);
    return {
      kind: 'procedure',
      subject: t,
      text: `Runbook: if ${t} ${r.pick(SYMPTOMS)}, restart the ${r.pick(['worker', 'api', 'proxy', 'scheduler'])} pods one at a time and page ${firstName(p)} (${r.pick(TEAMS)} on-call).`,
    };
  },
  (r) => {
    const p = r.pick(PEOPLE),
      pr = r.pick(PROJECTS);
    return {
      kind: 'fact',
      subject: p,
      text: `${p} is the tech lead of ${pr}, works from ${r.pick(CITIES)} and is usually online ${r.int(7, 10)}:00–${r.int(15, 19)}:00 local time.`,
    };
  },
  (r, day) => {
    const p = r.pick(PEOPLE);
    return {
      kind: 'fact',
      subject: p,
      text: `${p} joined the ${r.pick(TEAMS)} team on ${dateText(r, day)} after ${r.int(2, 9)} years at ${r.pick(CUSTOMERS)}; mentor is ${firstName(otherThan(r, PEOPLE, p))}.`,
    };
  },
  (r, day) => {
    const pr = r.pick(PROJECTS),
      s = r.pick(SYSTEMS),
      n = r.int(4, 60);
    return {
      kind: 'planning',
      subject: pr,
      text: `${pr} milestone ${r.int(1, 6)} is due ${dateText(r, day + r.int(5, 90))}; ${n} tickets remain, ${r.int(1, n)} of them in the ${s}.`,
    };
  },
  (r, day) => {
    const c = r.pick(CUSTOMERS),
      s = r.pick(SYSTEMS),
      p = r.pick(PEOPLE);
    return {
      kind: 'customer',
      subject: c,
      text: `${c} reported that the ${s} ${r.pick(SYMPTOMS)} during their ${r.pick(['month-end close', 'Black Friday sale', 'data import', 'SSO rollout'])}; ${who(r, p)} promised a fix by ${dateText(r, day + r.int(1, 14))} (${ticket(r)}).`,
    };
  },
  (r, day) => {
    const p = r.pick(PEOPLE),
      pr = r.pick(PROJECTS);
    return {
      kind: 'todo',
      subject: pr,
      text: `TODO for ${firstName(p)}: ${r.pick(['write the rollback plan', 'update the capacity estimate', 'finish the threat model', 'record the demo video', 'clean up the feature flags', 'draft the migration guide'])} before the ${pr} demo on ${dateText(r, day + r.int(2, 30))}.`,
    };
  },
  (r) => {
    const pr = r.pick(PROJECTS);
    return { kind: 'learning', subject: pr, text: `Lesson from the ${pr} ${r.pick(WORK_ITEMS)}: ${r.pick(INSIGHTS)}.` };
  },
  (r) => {
    const t = r.pick(TOOLS),
      s = r.pick(SYSTEMS);
    return {
      kind: 'fact',
      subject: t,
      text: `The ${s} runs ${t} ${version(r)} with ${r.int(2, 48)} replicas; the ${r.pick(TEAMS)} team owns the upgrade schedule.`,
    };
  },
  (r) => {
    const p = r.pick(PEOPLE),
      t = r.pick(TOOLS);
    return {
      kind: 'chat',
      subject: t,
      text: `User: how do I ${r.pick(TASKS)} for the ${r.pick(SYSTEMS)}?\nAssistant: use the ${t} playbook in the wiki; ${firstName(p)} wrote it last sprint.`,
    };
  },
  (r) => {
    const p = r.pick(PEOPLE),
      pr = r.pick(PROJECTS);
    return {
      kind: 'chat',
      subject: p,
      text: `User: can you remind me what ${firstName(p)} said about the ${pr} ${r.pick(WORK_ITEMS)}?\nAssistant: ${firstName(p)} wants it behind a flag until ${r.int(2, 20)} customers have tried it.`,
    };
  },
  (r) => {
    const p = r.pick(PEOPLE),
      t = r.pick(TOOLS);
    return {
      kind: 'chat',
      subject: p,
      text: `User: I'm ${firstName(p)}, I mostly work on the ${r.pick(SYSTEMS)} and I'd rather get answers with ${t} examples.\nAssistant: Noted, I'll keep that in mind.`,
    };
  },
  (r, day) => {
    const t = r.pick(TOOLS),
      p = r.pick(PEOPLE);
    return {
      kind: 'cost',
      subject: t,
      text: `${t} spend was $${r.int(2, 90)},${r.int(100, 999)} in ${MONTHS[new Date(BASE_DAY + day * DAY_MS).getUTCMonth()]}, ${r.int(5, 60)}% over budget; ${who(r, p)} is looking at reserved capacity.`,
    };
  },
];

// ---------- the memory stream ----------

export interface GeneratedMemory {
  input: RememberInput;
  /** Entity the memory is mainly about (people, projects, systems, tools, customers). */
  subject: string;
  kind: string;
}

export interface CorpusOptions {
  seed: number;
  namespace: string;
  /** Content length range in characters (default 100–300). */
  minChars?: number;
  maxChars?: number;
}

const SOURCES: Record<string, string> = {
  decision: 'meeting-notes',
  incident: 'incident-review',
  standup: 'meeting-notes',
  metric: 'slack',
  preference: 'slack',
  procedure: 'wiki',
  fact: 'slack',
  planning: 'jira',
  customer: 'support',
  todo: 'slack',
  learning: 'retro',
  chat: 'chat',
  cost: 'slack',
};

/**
 * An endless, deterministic stream of distinct memories. `next()` returns the next one; the
 * same seed always yields the same sequence.
 */
export class MemoryCorpus {
  private readonly r: Rng;
  private readonly seen = new Set<string>();
  private readonly minChars: number;
  private readonly maxChars: number;
  private produced = 0;

  constructor(private readonly options: CorpusOptions) {
    this.r = createRng(options.seed);
    this.minChars = options.minChars ?? 100;
    this.maxChars = options.maxChars ?? 300;
  }

  get count(): number {
    return this.produced;
  }

  next(): GeneratedMemory {
    for (;;) {
      const memory = this.compose();
      if (this.seen.has(memory.input.content)) continue;
      this.seen.add(memory.input.content);
      this.produced += 1;
      return memory;
    }
  }

  take(n: number): GeneratedMemory[] {
    return Array.from({ length: n }, () => this.next());
  }

  private compose(): GeneratedMemory {
    const r = this.r;
    // A day in 2024–2025; the stream drifts forward so dates look like a team's history.
    const day = Math.min(700, Math.floor(this.produced / 150) + r.int(0, 30));
    const target = r.int(this.minChars, this.maxChars);
    const first = r.pick(TEMPLATES)(r, day);
    let text = first.text;
    for (let tries = 0; text.length < target && tries < 8; tries++) {
      const more = r.pick(TEMPLATES)(r, day).text;
      if (first.kind === 'chat' || more.startsWith('User:')) continue; // chat turns stay single
      if (text.length + 1 + more.length <= this.maxChars) text = `${text} ${more}`;
    }
    if (text.length < this.minChars) text = `${text} ${r.pick(INSIGHTS).replace(/^./, (c) => c.toUpperCase())}.`;
    const chat = first.kind === 'chat';
    const input: RememberInput = {
      content: text,
      namespace: this.options.namespace,
      source: SOURCES[first.kind] ?? 'slack',
      occurredAt: new Date(BASE_DAY + day * DAY_MS + r.int(8 * 3600, 19 * 3600) * 1000).toISOString(),
      ...(chat ? { sessionId: `session-${Math.floor(this.produced / 12)}` } : {}),
      ...(r.chance(0.3) ? { who: r.pick(PEOPLE) } : {}),
    };
    return { input, subject: first.subject, kind: first.kind };
  }
}

// ---------- recall queries ----------

export interface BenchQuery {
  query: string;
  /** A word that a relevant memory must contain (case-insensitive): a cheap sanity check. */
  subject: string;
}

const QUERY_TEMPLATES: Array<(r: Rng) => BenchQuery> = [
  (r) => {
    const p = r.pick(PEOPLE);
    return { subject: firstName(p), query: `What did ${firstName(p)} decide about ${r.pick(TOOLS)}?` };
  },
  (r) => {
    const pr = r.pick(PROJECTS);
    return { subject: pr, query: `Who owns the ${pr} rollout?` };
  },
  (r) => {
    const t = r.pick(TOOLS);
    return { subject: t, query: `Why did we pick ${t} over ${otherThan(r, TOOLS, t)}?` };
  },
  (r) => {
    const pr = r.pick(PROJECTS);
    return { subject: pr, query: `What is the status of project ${pr}?` };
  },
  (r) => {
    const s = r.pick(SYSTEMS);
    return { subject: s, query: `What incidents hit the ${s} recently?` };
  },
  (r) => {
    const s = r.pick(SYSTEMS);
    return { subject: s, query: `How do I deploy the ${s}?` };
  },
  (r) => {
    const pr = r.pick(PROJECTS);
    return { subject: pr, query: `When is the next ${pr} milestone due?` };
  },
  (r) => {
    const p = r.pick(PEOPLE);
    return { subject: firstName(p), query: `What does ${firstName(p)} prefer in code reviews?` };
  },
  (r) => {
    const c = r.pick(CUSTOMERS);
    return { subject: c.split(' ')[0]!, query: `What problems did ${c} report?` };
  },
  (r) => {
    const s = r.pick(SYSTEMS);
    const m = r.pick(METRICS);
    return { subject: s, query: `How did the ${m} of the ${s} change?` };
  },
  (r) => {
    const p = r.pick(PEOPLE);
    return { subject: firstName(p), query: `Which team is ${p} on and where do they work from?` };
  },
  (r) => {
    const t = r.pick(TOOLS);
    return { subject: t, query: `What should I do when ${t} ${r.pick(SYMPTOMS)}?` };
  },
  (r) => {
    const t = r.pick(TOOLS);
    return { subject: t, query: `How much are we spending on ${t}?` };
  },
  (r) => {
    const pr = r.pick(PROJECTS);
    return { subject: pr, query: `lessons learned ${pr}` };
  },
  (r) => {
    const p = r.pick(PEOPLE);
    return { subject: firstName(p), query: `${firstName(p)} blocked review` };
  },
];

/** `n` distinct realistic questions about the people, projects, systems and tools of the corpus. */
export function benchQueries(seed: number, n: number): BenchQuery[] {
  const r = createRng(seed);
  const seen = new Set<string>();
  const out: BenchQuery[] = [];
  let guard = 0;
  while (out.length < n && guard++ < n * 50) {
    const q = r.pick(QUERY_TEMPLATES)(r);
    if (seen.has(q.query)) continue;
    seen.add(q.query);
    out.push(q);
  }
  // The template space is large (thousands), but never loop forever on tiny vocabularies.
  while (out.length < n) out.push(out[out.length % Math.max(1, seen.size)]!);
  return out;
}
