import { useCallback, useRef } from 'react';

/**
 * Keeps an action from starting again while it runs. A double-click delivers both clicks before
 * React shows the button busy (TanStack Query reports a mutation pending only after a render), and
 * `mutate`'s own callbacks then fire for the second call only: the first one's success went unseen.
 * `run(start)` calls `start(finish)` unless a start is still running; `finish` ends it (onSettled).
 */
export function useSingleFlight(): (start: (finish: () => void) => void) => void {
  const running = useRef(false);
  return useCallback((start: (finish: () => void) => void) => {
    if (running.current) return;
    running.current = true;
    start(() => {
      running.current = false;
    });
  }, []);
}
