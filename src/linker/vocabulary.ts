/**
 * Word lists the inline linker matches against: a modest list of well-known technologies (strong
 * entities even on first sight) and the words that look like names but never are.
 */

export interface KnownTech {
  /** Display name; its canonical form is the entity key, so aliases merge into one entity. */
  name: string;
  aliases: readonly string[];
  /** Match only when capitalised in the text: the word is also a common English word. */
  capitalisedOnly?: boolean;
}

export const KNOWN_TECH: readonly KnownTech[] = [
  { name: 'Redis', aliases: ['redis'] },
  { name: 'Memcached', aliases: ['memcached', 'memcache'] },
  { name: 'PostgreSQL', aliases: ['postgresql', 'postgres'] },
  { name: 'MySQL', aliases: ['mysql'] },
  { name: 'MariaDB', aliases: ['mariadb'] },
  { name: 'SQLite', aliases: ['sqlite', 'sqlite3'] },
  { name: 'MongoDB', aliases: ['mongodb', 'mongo'] },
  { name: 'Neo4j', aliases: ['neo4j'] },
  { name: 'Elasticsearch', aliases: ['elasticsearch'] },
  { name: 'Kafka', aliases: ['kafka'] },
  { name: 'RabbitMQ', aliases: ['rabbitmq'] },
  { name: 'Docker', aliases: ['docker'] },
  { name: 'Kubernetes', aliases: ['kubernetes', 'k8s'] },
  { name: 'Terraform', aliases: ['terraform'] },
  { name: 'Nginx', aliases: ['nginx'] },
  { name: 'GraphQL', aliases: ['graphql'] },
  { name: 'React', aliases: ['react', 'reactjs'], capitalisedOnly: true },
  { name: 'Vue', aliases: ['vue', 'vue.js', 'vuejs'] },
  { name: 'Angular', aliases: ['angular'], capitalisedOnly: true },
  { name: 'Next.js', aliases: ['next.js', 'nextjs'] },
  { name: 'Node.js', aliases: ['node.js', 'nodejs'] },
  { name: 'Deno', aliases: ['deno'] },
  { name: 'Express', aliases: ['express', 'express.js'], capitalisedOnly: true },
  { name: 'TypeScript', aliases: ['typescript'] },
  { name: 'JavaScript', aliases: ['javascript'] },
  { name: 'Python', aliases: ['python', 'python3'] },
  { name: 'Rust', aliases: ['rust'], capitalisedOnly: true },
  { name: 'Go', aliases: ['golang'] },
  { name: 'Java', aliases: ['java'], capitalisedOnly: true },
  { name: 'Django', aliases: ['django'] },
  { name: 'FastAPI', aliases: ['fastapi'] },
  { name: 'Flask', aliases: ['flask'], capitalisedOnly: true },
  { name: 'Vitest', aliases: ['vitest'] },
  { name: 'Jest', aliases: ['jest'], capitalisedOnly: true },
  { name: 'Git', aliases: ['git'] },
  { name: 'GitHub', aliases: ['github'] },
  { name: 'AWS', aliases: ['aws'] },
  { name: 'Ollama', aliases: ['ollama'] },
  { name: 'OpenAI', aliases: ['openai'] },
  { name: 'Stripe', aliases: ['stripe'], capitalisedOnly: true },
];

/** Function words and pronouns: never an entity, whatever their case. */
export const STOP_WORDS = new Set(
  (
    'a an the and or but nor so yet for of to in on at by with from into onto over under about after before between during since until ' +
    'i me my mine we us our ours you your yours he him his she her hers it its they them their theirs this that these those ' +
    'who whom whose which what when where why how here there then than if else also just only very too not no yes ok okay ' +
    'is are was were be been being am do does did done have has had will would shall should can could may might must ' +
    'hi hello hey thanks thank please sorry well oh so all any some each every both few more most many much other another such ' +
    'one two three first second last next new old good great same different however therefore meanwhile anyway maybe still already ' +
    'todo fixme hack xxx note fyi asap eta tbd pr id ids am pm etc vs via per re ' +
    // Heading and role labels that precede a colon like a speaker name would.
    'update summary example warning error decision context input output result results question answer ' +
    'problem solution reason goal status issue fix tip important edit user assistant system step steps ' +
    // Generic technical acronyms: words of the trade, not things.
    'ui ux api apis cli url urls uri http https json xml html css sql db os cpu gpu ram io ci cd sdk ide llm ai ml qa'
  ).split(' '),
);

/** Calendar words: dates, not entities. */
export const CALENDAR_WORDS = new Set(
  (
    'january february march april may june july august september october november december ' +
    'jan feb mar apr jun jul aug sep sept oct nov dec ' +
    'monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun ' +
    'today tomorrow yesterday tonight morning afternoon evening night weekend week month year'
  ).split(' '),
);

/** Lowercase, whitespace collapsed and trimmed: the entity key (DESIGN "Entity.canonicalName"). */
export function canonicalize(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

const TECH_BY_ALIAS = new Map<string, KnownTech>(KNOWN_TECH.flatMap((t) => t.aliases.map((a) => [a, t] as const)));

export function knownTech(word: string): KnownTech | undefined {
  return TECH_BY_ALIAS.get(word.toLowerCase());
}

/** All aliases, longest first, escaped for a regex alternation. */
export const TECH_ALIAS_SOURCE = [...TECH_BY_ALIAS.keys()]
  .sort((a, b) => b.length - a.length)
  .map((a) => a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  .join('|');
