import { useCallback, useRef } from 'react';
import {
  useMutation,
  type DefaultError,
  type UseMutateAsyncFunction,
  type UseMutateFunction,
  type UseMutationOptions,
  type UseMutationResult,
} from '@tanstack/react-query';

/** What tells two calls apart: the variables as JSON (a FormData or a File reads as `{}`, the same). */
function keyOf(variables: unknown): string | null {
  try {
    return JSON.stringify(variables) ?? 'undefined';
  } catch {
    return null;
  }
}

/**
 * useMutation for every write, with one rule added: while a call runs, a second call with the same
 * variables starts nothing and shares the first's outcome. A double-click (or Enter pressed twice)
 * delivers both events before React renders the button busy (TanStack reports `isPending` a render
 * late), and the second request was refused (409) and shown as a failure of the first, or wrote a
 * second row. Calls with other variables (marking another notification read) still run at once.
 *
 * For the same reason `reset()` does nothing while a call runs: the forms that clear the last
 * answer before they send would otherwise detach themselves from the write already on its way
 * (no busy button, and neither its result nor its error ever shown).
 */
export function useWriteMutation<
  TData = unknown,
  TError = DefaultError,
  TVariables = void,
  TContext = unknown,
>(
  options: UseMutationOptions<TData, TError, TVariables, TContext>,
): UseMutationResult<TData, TError, TVariables, TContext> {
  const inFlight = useRef(new Map<string, Promise<TData>>());
  const mutation = useMutation({
    ...options,
    // The write is over here, before TanStack calls the caller's own callbacks (which may reset).
    onSettled: (...args: Parameters<NonNullable<typeof options.onSettled>>) => {
      const key = keyOf(args[2]);
      if (key !== null) inFlight.current.delete(key);
      return options.onSettled?.(...args);
    },
  });
  const { mutateAsync, reset } = mutation;

  const run = useCallback(
    (...args: Parameters<UseMutateAsyncFunction<TData, TError, TVariables, TContext>>): Promise<TData> => {
      const key = keyOf(args[0]);
      const running = key === null ? undefined : inFlight.current.get(key);
      if (running) return running;
      const settled = mutateAsync(...args);
      if (key !== null) inFlight.current.set(key, settled);
      return settled;
    },
    [mutateAsync],
  ) as UseMutateAsyncFunction<TData, TError, TVariables, TContext>;
  const mutate = useCallback(
    (...args: Parameters<UseMutateFunction<TData, TError, TVariables, TContext>>) => {
      // As TanStack's own mutate: the outcome is read from the result or the callbacks.
      run(...args).catch(() => undefined);
    },
    [run],
  ) as UseMutateFunction<TData, TError, TVariables, TContext>;
  const guardedReset = useCallback(() => {
    if (inFlight.current.size === 0) reset();
  }, [reset]);
  return { ...mutation, mutate, mutateAsync: run, reset: guardedReset };
}
