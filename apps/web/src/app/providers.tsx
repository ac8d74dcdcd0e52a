import { lazy, Suspense, useState, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useNotifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-client';
import { AuthProvider } from '@/lib/auth/auth-provider';
import { cssVariablesResolver, theme } from './theme';

/** Retries only what may succeed on a second try: network failures and server errors, twice. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

// Mantine's notification container (with react-transition-group) is only needed once a screen
// shows a notification, which the first screen never does: it is downloaded with the first one.
const Notifications = lazy(() => import('./notifications'));
/** Mantine's `sm` breakpoint (48em): narrower is a phone. */
const PHONE_WIDTH = '(max-width: 47.99em)';

function AppNotifications() {
  const { notifications } = useNotifications();
  const [needed, setNeeded] = useState(false);
  // Stays mounted once needed, so the last notification still plays its closing transition.
  if (!needed && notifications.length > 0) setNeeded(true);
  // On a computer, below the page, not over the header: a toast at the top covered the bell and the
  // menu it is about. On a phone a dialog fills the screen and its buttons are at the bottom, where
  // a toast covered them ("Checked in" over Record collection), so there it goes at the top.
  const phone = useMediaQuery(PHONE_WIDTH);
  return needed ? (
    <Suspense fallback={null}>
      <Notifications position={phone ? 'top-center' : 'bottom-right'} />
    </Suspense>
  ) : null;
}

interface AppProvidersProps {
  children: ReactNode;
  queryClient?: QueryClient;
  /** 'test' turns off Mantine's transitions and portals, which jsdom cannot run. */
  mantineEnv?: 'default' | 'test';
}

export function AppProviders({ children, queryClient, mantineEnv = 'default' }: AppProvidersProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
      env={mantineEnv}
    >
      <AppNotifications />
      <QueryClientProvider client={client}>
        <AuthProvider>{children}</AuthProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
