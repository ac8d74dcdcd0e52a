import type { ReactNode } from 'react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { useWriteMutation } from './use-write-mutation';

/** A write whose answers the test releases one by one. */
function slowWrite() {
  const calls: { variables: unknown; finish: (value: string) => void; fail: (error: Error) => void }[] = [];
  const mutationFn = (variables: { id: number }) =>
    new Promise<string>((finish, fail) => calls.push({ variables, finish, fail }));
  return { calls, mutationFn };
}

function renderWrite(mutationFn: (variables: { id: number }) => Promise<string>) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  return renderHook(() => useWriteMutation({ mutationFn }), { wrapper });
}

describe('useWriteMutation', () => {
  it('starts one write for two calls with the same variables in the same moment (a double-click), and both see its outcome', async () => {
    const write = slowWrite();
    const { result } = renderWrite(write.mutationFn);
    const seen: string[] = [];
    let first!: Promise<string>;
    let second!: Promise<string>;
    act(() => {
      result.current.mutate({ id: 9 }, { onSuccess: (value) => seen.push(`mutate: ${value}`) });
      result.current.mutate({ id: 9 });
      first = result.current.mutateAsync({ id: 9 });
      second = result.current.mutateAsync({ id: 9 });
    });
    await waitFor(() => expect(write.calls).toHaveLength(1));
    act(() => write.calls[0]!.finish('cancelled'));
    await expect(first).resolves.toBe('cancelled');
    await expect(second).resolves.toBe('cancelled');
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(seen).toEqual(['mutate: cancelled']);
    expect(write.calls).toHaveLength(1);
  });

  it('runs calls with other variables at once, and the same variables again once the first write is over', async () => {
    const write = slowWrite();
    const { result } = renderWrite(write.mutationFn);
    act(() => {
      result.current.mutate({ id: 1 });
      result.current.mutate({ id: 2 });
    });
    await waitFor(() => expect(write.calls.map((call) => call.variables)).toEqual([{ id: 1 }, { id: 2 }]));

    let first!: Promise<string>;
    act(() => {
      first = result.current.mutateAsync({ id: 1 });
    });
    act(() => write.calls[0]!.fail(new Error('This unit is not available.')));
    await expect(first).rejects.toThrow('This unit is not available.');
    // The failed write is over: trying it again is a new write, not a double-click.
    let again!: Promise<string>;
    act(() => {
      again = result.current.mutateAsync({ id: 1 });
    });
    await waitFor(() => expect(write.calls).toHaveLength(3));
    act(() => {
      write.calls[1]!.finish('second');
      write.calls[2]!.finish('retried');
    });
    await expect(again).resolves.toBe('retried');
  });

  it('keeps a form that resets before it sends attached to the write already on its way (a double submit)', async () => {
    const write = slowWrite();
    const { result } = renderWrite(write.mutationFn);
    const seen: string[] = [];
    // What Donate Blood and Request Blood do on each submit: clear the last answer, then send.
    const submit = () => {
      result.current.reset();
      result.current.mutate({ id: 9 }, { onSuccess: (value) => seen.push(value) });
    };
    act(() => {
      submit();
      submit();
    });
    await waitFor(() => expect(result.current.isPending).toBe(true));
    expect(write.calls).toHaveLength(1);
    act(() => write.calls[0]!.finish('booked'));
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toBe('booked');
    expect(seen).toEqual(['booked']);
  });

  it("resets once the write is over, also from the call's own success callback", async () => {
    const write = slowWrite();
    const { result } = renderWrite(write.mutationFn);
    act(() => {
      result.current.mutate({ id: 4 }, { onSuccess: () => result.current.reset() });
    });
    await waitFor(() => expect(write.calls).toHaveLength(1));
    act(() => write.calls[0]!.finish('done'));
    await waitFor(() => expect(result.current.isIdle).toBe(true));
    expect(result.current.data).toBeUndefined();
  });
});
