import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { Header } from './header';

describe("the phone's navigation menu", () => {
  it('closes on Escape and gives focus back to its button', async () => {
    mockApi({});
    const { user } = renderScreen(<Header />);
    await user.click(screen.getByRole('button', { name: 'Open navigation' }));
    const menu = screen.getByRole('button', { name: 'Close navigation' });
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    expect(document.getElementById('mobile-menu')).toBeInTheDocument();

    await user.keyboard('{Escape}');

    expect(document.getElementById('mobile-menu')).not.toBeInTheDocument();
    const burger = screen.getByRole('button', { name: 'Open navigation' });
    expect(burger).toHaveAttribute('aria-expanded', 'false');
    expect(burger).toHaveFocus();
  });
});
