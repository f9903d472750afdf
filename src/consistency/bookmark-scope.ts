import { AsyncLocalStorage } from 'node:async_hooks';
import neo4j, { type BookmarkManager } from 'neo4j-driver';

/**
 * One bookmark chain: every session opened inside it starts from the chain's bookmarks and adds
 * its own on commit, so a read sees every write made before it in the same chain — on whichever
 * cluster member serves it. A request (or a worker's job) runs inside one scope.
 */
export class ConsistencyScope {
  readonly manager: BookmarkManager;
  private readonly initial: readonly string[];

  constructor(initialBookmarks: readonly string[] = []) {
    this.initial = initialBookmarks;
    this.manager = neo4j.bookmarkManager({ initialBookmarks: [...initialBookmarks] });
  }

  /** The chain's bookmarks now: those it started from, replaced by each committed transaction's. */
  async bookmarks(): Promise<string[]> {
    return [...(await this.manager.getBookmarks())];
  }

  startedFrom(): readonly string[] {
    return this.initial;
  }
}

const storage = new AsyncLocalStorage<ConsistencyScope>();

/** Runs `work` inside a bookmark chain; the Executor picks it up for every session it opens. */
export function withConsistency<T>(scope: ConsistencyScope, work: () => T): T {
  return storage.run(scope, work);
}

export function currentScope(): ConsistencyScope | undefined {
  return storage.getStore();
}

/** Runs `work` outside any request's chain (background flushes must not extend a request's). */
export function outsideConsistency<T>(work: () => T): T {
  return storage.exit(work);
}
