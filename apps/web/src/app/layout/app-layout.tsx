import { useEffect, useRef } from 'react';
import { Box } from '@mantine/core';
import { Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import { Footer } from './footer';
import { Header } from './header';
import classes from './layout.module.css';

/** Spec section 2: the whole app is wrapped in a header and a footer. */
export function AppLayout() {
  const navigation = useNavigation();
  const main = useRef<HTMLElement>(null);
  useFocusOnNewPage(main);
  return (
    <div className={classes.shell}>
      <a href="#main" className={classes.skipLink}>
        Skip to main content
      </a>
      {/* Role areas load on first visit; the bar shows that a click was taken. */}
      {navigation.state !== 'idle' ? <div className={classes.progress} aria-hidden /> : null}
      <Header />
      <Box component="main" id="main" ref={main} tabIndex={-1} className={classes.main}>
        <Outlet />
      </Box>
      <Footer />
      <ScrollRestoration />
    </div>
  );
}

/**
 * After a move to another page, focus goes to its heading (or to the main area while it has none
 * yet), as a screen reader user would otherwise stay on the link that was clicked, or fall back to
 * the top of the document when that link is gone (WCAG 2.4.3). Not on the first page, and not when
 * the new page has put focus in itself (a form's first field, a message).
 */
function useFocusOnNewPage(main: React.RefObject<HTMLElement | null>) {
  const { pathname } = useLocation();
  // The page focus was last placed for (the first one needs none); StrictMode's second run of the
  // effect on mount then changes nothing either.
  const placedFor = useRef(pathname);
  useEffect(() => {
    if (placedFor.current === pathname) return;
    placedFor.current = pathname;
    const area = main.current;
    if (!area || area.contains(document.activeElement)) return;
    const heading = area.querySelector<HTMLElement>('h1');
    if (heading) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    } else {
      area.focus({ preventScroll: true });
    }
  }, [pathname, main]);
}
