import { act, render, screen } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubMediaQueries } from '@/test/media-query';
import { AppProviders } from './providers';

/** Only PHONE_WIDTH (providers.tsx), a max-width query, matches on a phone. */
const screenWidth = (phone: boolean) => stubMediaQueries((query) => phone && query.includes('max-width'));

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
