import { useEffect, type MouseEvent } from 'react';
import { useLocation } from 'react-router';

/** While the parts above it load and push it down, the target is brought back into view this long. */
const SETTLE_MS = 2000;

/**
 * A link to a part of a page (`/admin-blood#receive-units`) opens the page at that part, as a link
 * does on any web page. The router's scroll restoration scrolls to the hash once, when the page
 * first renders; the sections above it then load their data and push it down. So the element is
 * brought back into view (under the sticky header: the page's scroll-padding-top) as the page's
 * height changes, until the user scrolls or types or the page has settled, and focus moves to it,
 * or to its first field, so a keyboard or screen-reader user starts there too.
 */
export function useScrollToHash(): void {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    let id: string;
    try {
      id = decodeURIComponent(hash.slice(1));
    } catch {
      return; // A malformed address (#%E0%A4%A) opens the page at its top, not an error.
    }
    const element = document.getElementById(id);
    if (!element) return;
    const bringIntoView = () => element.scrollIntoView({ block: 'start' });
    bringIntoView();
    focusTargetOf(element)?.focus({ preventScroll: true });

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

/**
 * Where focus lands in a part of a page: the part itself when it takes focus, else its first field,
 * else its heading when the heading takes focus (a list with no field: read from its name).
 */
function focusTargetOf(element: HTMLElement): HTMLElement | null {
  return element.hasAttribute('tabindex')
    ? element
    : (element.querySelector<HTMLElement>('input, select, textarea') ??
        element.querySelector<HTMLElement>('h2[tabindex="-1"], h3[tabindex="-1"]'));
}

/**
 * For a link to a part of the same page (`<a href="#find-unit">`), clicked: brings the part into
 * view and focuses it or its first field, as opening the page at that hash does. The address is
 * left as it is (the screen's filters stay, Back leaves the page), and a second click works too,
 * which a hash already in the address would not. Returns false when the part is not on the page.
 */
export function jumpToPart(id: string): boolean {
  const element = document.getElementById(id);
  if (!element) return false;
  element.scrollIntoView({ block: 'start' });
  focusTargetOf(element)?.focus({ preventScroll: true });
  return true;
}

/**
 * The click handler of a link to a part of the same page (jumpToPart). A click that opens a new tab
 * or window (a modifier key, the middle button) is left to the browser: the page opens there at the hash.
 */
export function jumpOnPlainClick(id: string) {
  return (event: MouseEvent<HTMLAnchorElement>) => {
    if (isPlainClick(event) && jumpToPart(id)) event.preventDefault();
  };
}

/** A click that follows a link here: not one that opens it in a new tab or window (a modifier key, another button). */
export function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}
