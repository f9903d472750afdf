import type { Executor, TxWork } from '../../src/db/index.js';

/**
 * What the driver does when the reply to a COMMIT is lost: the work has committed, and the
 * driver runs it again in a new transaction. This wrapper does exactly that for every managed
 * write transaction of the operations it is told to replay, and returns the second result.
 */
export function replayingExecutor(
  executor: Executor,
  replay: (operation: string) => boolean = () => true,
): { executor: Executor; replays: () => number } {
  let replays = 0;
  const writeTx = async <T>(operation: string, work: TxWork<T>): Promise<T> => {
    const first = await executor.writeTx(operation, work);
    if (!replay(operation)) return first;
    replays += 1;
    return executor.writeTx(operation, work);
  };
  const wrapped = new Proxy(executor, {
    get(target, property, receiver) {
      if (property === 'writeTx') return writeTx;
      // `write` goes through writeTx inside the class; route it here so it is replayed too.
      if (property === 'write')
        return (operation: string, cypher: string, params = {}) => writeTx(operation, (tx) => tx.run(cypher, params));
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { executor: wrapped, replays: () => replays };
}
