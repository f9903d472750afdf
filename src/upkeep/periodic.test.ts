import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logger.js';
import { PeriodicTask, SHARED_FIRST_CHECK_MS } from './periodic.js';

const logger = createLogger('silent');
const HOUR = 3_600_000;

describe('PeriodicTask with a shared schedule', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks the schedule soon after start, runs only when it is due, and waits what the schedule says', async () => {
    const asked: number[] = [];
    const answers = [20 * 60_000, 0]; // another replica ran it 40 min ago; then due
    let runs = 0;
    const task = new PeriodicTask(
      'hourly',
      HOUR,
      async () => {
        runs += 1;
      },
      logger,
      0,
      HOUR,
      async (intervalMs) => {
        asked.push(intervalMs);
        return answers.shift() ?? HOUR;
      },
    );
    task.start();
    await vi.advanceTimersByTimeAsync(SHARED_FIRST_CHECK_MS); // not a whole hour after a restart
    expect(asked).toEqual([HOUR]);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(20 * 60_000);
    expect(asked).toHaveLength(2);
    expect(runs).toBe(1);
    await task.stop();
  });

  it('the runs a run asks for (again) follow without asking the schedule', async () => {
    let asked = 0;
    let runs = 0;
    const task = new PeriodicTask(
      'backlog',
      HOUR,
      async () => {
        runs += 1;
        return { again: runs < 3 };
      },
      logger,
      1_000,
      HOUR,
      async () => {
        asked += 1;
        return asked === 1 ? 0 : HOUR;
      },
    );
    task.start();
    await vi.advanceTimersByTimeAsync(SHARED_FIRST_CHECK_MS + 2_000);
    expect(runs).toBe(3);
    expect(asked).toBe(1);
    await task.stop();
  });

  it('without a shared schedule, the first run comes after the first delay and every interval after', async () => {
    let runs = 0;
    const task = new PeriodicTask(
      'plain',
      HOUR,
      async () => {
        runs += 1;
      },
      logger,
    );
    task.start();
    await vi.advanceTimersByTimeAsync(HOUR - 1);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(HOUR + 1);
    expect(runs).toBe(2);
    await task.stop();
  });
});
