import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** While the parts above it load and push it down, the target is brought back into view this long. */
const SETTLE_MS = 2000;

/**
 * A link to a part of a page (`/admin-blood#receive-units`) opens the page at that part, as a link
 * does on any web page: the client-side router does not scroll to a hash by itself. The element is
 * brought under the sticky header (the page's scroll-padding-top), and focus moves to it, or to its
 * first field, so a keyboard or screen-reader user starts there too. The sections above it load
 * their data after the page appears and push it down, so it is brought back into view as the
 * page's height changes, until the user scrolls or types or the page has settled.
 */
export function useScrollToHash(): void {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const element = document.getElementById(decodeURIComponent(hash.slice(1)));
    if (!element) return;
    const bringIntoView = () => element.scrollIntoView({ block: 'start' });
    bringIntoView();
    const target = element.hasAttribute('tabindex')
      ? element
      : element.querySelector<HTMLElement>('input, select, textarea');
    target?.focus({ preventScroll: true });

    const heights = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(bringIntoView);
    heights?.observe(document.body);
    const stop = () => {
      heights?.disconnect();
      for (const event of USER_MOVES) window.removeEventListener(event, stop);
      window.clearTimeout(timer);
    };
    const timer = window.setTimeout(stop, SETTLE_MS);
    for (const event of USER_MOVES) window.addEventListener(event, stop, { passive: true });
    return stop;
  }, [hash]);
}

const USER_MOVES = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;
