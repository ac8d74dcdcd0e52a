import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { AppProviders, createQueryClient } from '@/app/providers';

function CurrentPath() {
  const location = useLocation();
  return <div data-testid="current-path">{location.pathname}</div>;
}

interface RenderOptions {
  /** The path the element is mounted at. */
  path?: string;
  initialPath?: string;
  /** Extra routes (e.g. the dashboards a form navigates to). */
  routes?: RouteObject[];
}

/**
 * Renders a screen inside the app's providers and a memory router. Any path without a route
 * renders the current pathname, so tests can assert where a screen navigated to.
 */
export function renderScreen(element: ReactElement, options: RenderOptions = {}) {
  const path = options.path ?? '/';
  const router = createMemoryRouter(
    [{ path, element }, ...(options.routes ?? []), { path: '*', element: <CurrentPath /> }],
    { initialEntries: [options.initialPath ?? path] },
  );
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false }, mutations: { retry: false } });
  const user = userEvent.setup();
  const result = render(
    <AppProviders queryClient={queryClient} mantineEnv="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router, user, queryClient };
}

/** Renders the real route table of the app (lazy areas included) at `path`. */
export async function renderApp(path: string) {
  const { routes } = await import('@/app/router');
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false }, mutations: { retry: false } });
  const user = userEvent.setup();
  const result = render(
    <AppProviders queryClient={queryClient} mantineEnv="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router, user, queryClient };
}
