import { act, render, screen } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from './providers';

/** The page as wide as `query` says: only PHONE_WIDTH (providers.tsx) matches on a phone. */
function screenWidth(phone: boolean) {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: phone && query.includes('max-width'),
        media: query,
        onchange: null,
        addListener: () => undefined,
        removeListener: () => undefined,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        dispatchEvent: () => false,
      }) as MediaQueryList,
  );
}

async function showToast() {
  render(
    <AppProviders mantineEnv="test">
      <p>Page</p>
    </AppProviders>,
  );
  act(() => {
    notifications.show({ title: 'Checked in', message: 'Neha Das is checked in for 10:00.' });
  });
  const toast = await screen.findByText('Neha Das is checked in for 10:00.');
  return toast.closest('[data-position]')?.getAttribute('data-position');
}

describe('AppProviders: where toasts appear', () => {
  afterEach(() => {
    act(() => notifications.clean());
    vi.restoreAllMocks();
  });

  it('on a phone, at the top: a dialog there fills the screen and its buttons are at the bottom', async () => {
    screenWidth(true);
    expect(await showToast()).toBe('top-center');
  });

  it('on a computer, at the bottom right, clear of the header and its bell', async () => {
    screenWidth(false);
    expect(await showToast()).toBe('bottom-right');
  });
});
