import { useCallback, useRef } from 'react';
import { ApiError } from './api-client';

/** How far the server's clock may be from the phone's when a write whose answer was lost is looked for. */
export const CLOCK_MARGIN_MS = 10 * 60_000;

/**
 * `send`, made safe to repeat over a connection that drops. When a send's answer is lost (the
 * connection failed after the request left the phone: status 0), the write may have been made:
 * `findMade` is asked for it (made since the phone's `since`, less CLOCK_MARGIN_MS, with the same
 * details), now and again before the next send. What it finds is the answer; so pressing the
 * button again after "Failed…" shows what was made instead of making it twice.
 */
export function useSendOnce<Input, Output>(
  send: (input: Input) => Promise<Output>,
  findMade: (input: Input, since: number) => Promise<Output | undefined>,
): (input: Input) => Promise<Output> {
  // When the first send whose answer was lost left; null when no answer is missing.
  const lostSince = useRef<number | null>(null);
  return useCallback(
    async (input: Input) => {
      const look = async (since: number) => {
        const made = await findMade(input, since).catch(() => undefined);
        if (made !== undefined) lostSince.current = null;
        return made;
      };
      if (lostSince.current !== null) {
        const made = await look(lostSince.current);
        if (made !== undefined) return made;
      }
      const sentAt = Date.now();
      try {
        const answer = await send(input);
        lostSince.current = null;
        return answer;
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 0)) throw error;
        lostSince.current ??= sentAt;
        const made = await look(lostSince.current);
        if (made === undefined) throw error;
        return made;
      }
    },
    [send, findMade],
  );
}

/** Whether a row the server stamped `createdAt` may be the one a send at the phone's `since` made. */
export const madeSince = (createdAt: string, since: number) =>
  Date.parse(createdAt) >= since - CLOCK_MARGIN_MS;
