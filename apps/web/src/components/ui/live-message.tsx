import { useEffect, useState, type ReactNode } from 'react';

/** Long enough for a screen reader to have seen the empty region before its message arrives. */
const SETTLE_MS = 150;

/**
 * A message shown as a page opens, said by screen readers: a status region inserted with its text
 * already in it is often not read at all, so the region is put in empty and the message follows.
 * Whatever is inside should not be a live region of its own (give a Mantine Alert role="note").
 */
export function LiveMessage({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setShown(true), SETTLE_MS);
    return () => window.clearTimeout(timer);
  }, []);
  return <div role="status">{shown ? children : null}</div>;
}
