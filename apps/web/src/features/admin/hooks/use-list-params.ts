import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A list's page, filters and sort live in the URL: a reload, a shared link or the back button
 * shows the same page. Values equal to their default are left out of the URL.
 */
export function useListParams<const D extends Record<string, string>>(
  defaults: D,
  allowed: { [K in keyof D]?: readonly string[] } = {},
) {
  const [params, setParams] = useSearchParams();

  const values = useMemo(() => {
    const read = {} as { [K in keyof D]: string };
    for (const key of Object.keys(defaults) as (keyof D & string)[]) {
      const value = params.get(key);
      const options = allowed[key];
      read[key] = value !== null && (!options || options.includes(value)) ? value : (defaults[key] as string);
    }
    return read;
    // `defaults` and `allowed` are literals of the calling screen: only the URL changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [params]);

  const pageParam = Number.parseInt(params.get('page') ?? '1', 10);
  const page = Number.isFinite(pageParam) && pageParam >= 1 ? pageParam : 1;

  /**
   * Changing a filter goes back to page 1 unless the change says which page. Setting a filter to
   * the value it already has is no change: the page stays.
   */
  const update = useCallback(
    (changes: Partial<Record<keyof D | 'page', string | number>>) => {
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          let filterChanged = false;
          for (const [key, value] of Object.entries(changes)) {
            const text = String(value ?? '');
            const fallback = key === 'page' ? '1' : (defaults[key] as string | undefined);
            if (text === '' || text === fallback) next.delete(key);
            else next.set(key, text);
            if (key !== 'page' && next.get(key) !== previous.get(key)) filterChanged = true;
          }
          if (filterChanged && !('page' in changes)) next.delete('page');
          return next;
        },
        { replace: true, preventScrollReset: true },
      );
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [setParams],
  );

  return { values, page, update };
}
