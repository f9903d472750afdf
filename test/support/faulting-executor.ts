import type { Executor, TxRunner, TxWork } from '../../src/db/index.js';

export interface WriteFaults {
  /** Runs before each managed write transaction of the operation opens (e.g. after remember's dedup reads). */
  beforeTx?: () => Promise<void>;
  /** Runs inside each of its write transactions after the work, before commit (inject failures here). */
  beforeCommit?: (tx: TxRunner) => Promise<void>;
}

/**
 * An executor that interleaves test code around one operation's write transactions: the write
 * path stays free of test hooks, and a test passes this as `wrapExecutor` to createServices.
 */
export function faultingExecutor(operation: string, faults: WriteFaults): (executor: Executor) => Executor {
  return (executor) => {
    const writeTx = async <T>(name: string, work: TxWork<T>): Promise<T> => {
      if (name !== operation) return executor.writeTx(name, work);
      await faults.beforeTx?.();
      return executor.writeTx(name, async (tx) => {
        const result = await work(tx);
        await faults.beforeCommit?.(tx);
        return result;
      });
    };
    return withWriteTx(executor, writeTx);
  };
}

/** `executor` with its managed write transactions run by `writeTx` instead (everything else as it is). */
export function withWriteTx(executor: Executor, writeTx: <T>(operation: string, work: TxWork<T>) => Promise<T>): Executor {
  return new Proxy(executor, {
    get(target, property, receiver) {
      if (property === 'writeTx') return writeTx;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
