import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '@/test/render';

// The menu code is loaded once per page (module state): each test starts from a fresh module.
beforeEach(() => {
  vi.resetModules();
});

async function renderUserMenu() {
  const { HeaderMenu } = await import('./header-menu');
  const logOut = vi.fn();
  const view = renderScreen(
    <HeaderMenu
      trigger={<button type="button">asha</button>}
      width={200}
      items={[{ label: 'Logout', onClick: logOut }]}
    />,
  );
  return { ...view, logOut };
}

describe('a header dropdown loaded on demand', () => {
  it('opens when the menu code arrives between the press and the release (the browser fires no click then)', async () => {
    await renderUserMenu();
    const placeholder = screen.getByRole('button', { name: 'asha' });

    fireEvent.pointerDown(placeholder, { button: 0 });
    // The menu's own trigger replaces the placeholder once the code is there.
    await waitFor(() => expect(screen.getByRole('button', { name: 'asha' })).not.toBe(placeholder));
    fireEvent.pointerUp(screen.getByRole('button', { name: 'asha' }), { button: 0 });

    expect(await screen.findByRole('menuitem', { name: 'Logout' })).toBeVisible();
  });

  it('opens once on a whole click made before the code arrives, and its items work', async () => {
    const { user, logOut } = await renderUserMenu();
    const placeholder = screen.getByRole('button', { name: 'asha' });

    // Press, release and click in one go, as a browser does when nothing re-renders in between.
    fireEvent.pointerDown(placeholder, { button: 0 });
    fireEvent.pointerUp(placeholder, { button: 0 });
    fireEvent.click(placeholder);
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));

    expect(logOut).toHaveBeenCalledTimes(1);
  });

  it('does not open on a press of another mouse button', async () => {
    await renderUserMenu();
    const placeholder = screen.getByRole('button', { name: 'asha' });

    fireEvent.pointerDown(placeholder, { button: 2 });
    fireEvent.pointerEnter(placeholder);
    await waitFor(() => expect(screen.getByRole('button', { name: 'asha' })).not.toBe(placeholder));

    expect(screen.queryByRole('menuitem', { name: 'Logout' })).toBeNull();
  });
});

describe('a header dropdown and the keyboard', () => {
  it('lets Tab leave the open menu: it closes, and the keyboard is back on its button', async () => {
    const { user } = await renderUserMenu();
    // The menu's own trigger, once its code has loaded.
    await user.hover(screen.getByRole('button', { name: 'asha' }));
    await user.click(await screen.findByRole('button', { name: 'asha' }));
    const item = await screen.findByRole('menuitem', { name: 'Logout' });
    item.focus();

    await user.tab();

    await waitFor(() => expect(screen.queryByRole('menuitem', { name: 'Logout' })).toBeNull());
    expect(screen.getByRole('button', { name: 'asha' })).toHaveFocus();
  });
});
