import type { ComponentType } from 'react';

/**
 * Stands in for a role area's routes module in the route-table tests: each page is a heading with
 * its export name, so those tests check the guard and redirects, not the screens (which have their
 * own tests).
 */
export function stubArea(names: readonly string[]): Record<string, ComponentType> {
  return Object.fromEntries(
    names.map((name) => {
      const Page = () => <h1>{name}</h1>;
      Page.displayName = name;
      return [name, Page];
    }),
  );
}
