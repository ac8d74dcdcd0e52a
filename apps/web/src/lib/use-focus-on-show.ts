import { useEffect, useRef, type RefObject } from 'react';

/**
 * For what replaces the part of a page the user just acted on (a form that was sent, a success
 * message that was left): when it appears, focus moves to it, so a screen reader reads on from
 * there, and it is scrolled into view, since on a phone the page stays scrolled down where the
 * button was and the new content starts above the screen. The element must take focus
 * (tabIndex={-1}); with `active` false (shown on arrival rather than after an action) nothing moves.
 */
export function useFocusOnShow<T extends HTMLElement>(active = true): RefObject<T | null> {
  const ref = useRef<T>(null);
  useEffect(() => {
    const element = ref.current;
    if (!active || !element) return;
    element.focus({ preventScroll: true });
    // "nearest" leaves an element already in view where it is; one above the view comes to its top,
    // below the sticky header (the page's scroll-padding-top).
    element.scrollIntoView({ block: 'nearest' });
  }, [active]);
  return ref;
}
