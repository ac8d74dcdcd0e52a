import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { format } from 'node:util';
import { afterEach } from 'vitest';
import { mediaQueryList } from './media-query';

// findBy*/waitFor give up after 1 s by default: too tight for lazy route chunks on a busy 2-core box.
configure({ asyncUtilTimeout: 5_000 });

// jsdom lacks the layout APIs Mantine reads; these are inert stand-ins.
if (!window.matchMedia) window.matchMedia = (query: string) => mediaQueryList(query, false);
if (!window.ResizeObserver) {
  window.ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
window.HTMLElement.prototype.scrollIntoView = () => undefined;
// jsdom has no PointerEvent: without one, fireEvent.pointerDown sends a bare Event with no button.
if (!window.PointerEvent) {
  window.PointerEvent = class PointerEvent extends MouseEvent {} as typeof window.PointerEvent;
}
// React Router's ScrollRestoration scrolls on every navigation.
window.scrollTo = () => undefined;

/**
 * A console error during a test fails it (ARCHITECTURE.md convention 14): React's warnings about
 * act(), keys or invalid markup are bugs. A plain function rather than a spy, so restoreMocks
 * cannot undo it.
 */
const consoleErrors: string[] = [];
const originalConsoleError = console.error.bind(console);
console.error = (...args: unknown[]) => {
  consoleErrors.push(format(...args));
  originalConsoleError(...args);
};

afterEach(() => {
  cleanup();
  // Mantine keeps notifications in a module-level store: one left by a test (autoClose 4 s) would
  // show in the next test's tree as a second role="alert" until it closes.
  notifications.clean();
  localStorage.clear();
  // Drafts of forms and an expired session live there (lib/form-draft.ts, lib/session-storage.ts).
  sessionStorage.clear();
  const errors = consoleErrors.splice(0);
  if (errors.length > 0) {
    throw new Error(`console.error was called during the test:\n${errors.join('\n---\n')}`);
  }
});
