import { Box } from '@mantine/core';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { Footer } from './footer';
import { Header } from './header';
import classes from './layout.module.css';

/** Spec section 2: the whole app is wrapped in a header and a footer. */
export function AppLayout() {
  const navigation = useNavigation();
  return (
    <div className={classes.shell}>
      <a href="#main" className={classes.skipLink}>
        Skip to main content
      </a>
      {/* Role areas load on first visit; the bar shows that a click was taken. */}
      {navigation.state !== 'idle' ? <div className={classes.progress} aria-hidden /> : null}
      <Header />
      <Box component="main" id="main" tabIndex={-1} className={classes.main}>
        <Outlet />
      </Box>
      <Footer />
      <ScrollRestoration />
    </div>
  );
}
