import { describe, expect, it } from 'vitest';
import { oneReadAtATime } from './change-versions';

/** A read whose answer the test gives, in the order the reads began. */
function controlledReads() {
  const reads: { answer: (value: number) => void }[] = [];
  const read = () =>
    new Promise<number>((resolve) => {
      reads.push({ answer: resolve });
    });
  return { reads, read };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('oneReadAtATime (the change counters on PostgreSQL)', () => {
  it('never gives a caller a read that began before it asked: those who ask meanwhile share the next read', async () => {
    const { reads, read } = controlledReads();
    const next = oneReadAtATime(read);
    const first = next();
    expect(reads).toHaveLength(1);
    // Two callers arrive while the first read is under way: no new read yet...
    const second = next();
    const third = next();
    await settle();
    expect(reads).toHaveLength(1);
    // ...one begins as soon as the first ends, and both get its answer, not the first's.
    reads[0]!.answer(1);
    expect(await first).toBe(1);
    await settle();
    expect(reads).toHaveLength(2);
    reads[1]!.answer(2);
    expect(await second).toBe(2);
    expect(await third).toBe(2);
  });

  it('starts a fresh read for a caller after the last one ended, and goes on after a failed read', async () => {
    let calls = 0;
    const next = oneReadAtATime(async () => {
      calls += 1;
      if (calls === 1) throw new Error('connection lost');
      return calls;
    });
    await expect(next()).rejects.toThrow('connection lost');
    expect(await next()).toBe(2);
    expect(await next()).toBe(3);
  });
});
