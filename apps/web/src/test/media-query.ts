import { vi } from 'vitest';

/** A MediaQueryList answering `matches` for `query`: jsdom has no layout to match media queries against. */
export function mediaQueryList(query: string, matches: boolean): MediaQueryList {
  return {
    matches,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  } as MediaQueryList;
}

/** A screen that matches the media queries `matching` accepts, until the spy is restored. */
export function stubMediaQueries(matching: (query: string) => boolean) {
  return vi
    .spyOn(window, 'matchMedia')
    .mockImplementation((query: string) => mediaQueryList(query, matching(query)));
}
