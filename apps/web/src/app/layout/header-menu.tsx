import { cloneElement, useState, useSyncExternalStore, type PointerEvent } from 'react';
import type { LoadedHeaderMenu as LoadedMenu, LoadedHeaderMenuProps } from './header-menu-dropdown';

// Mantine's Menu brings Popover, focus trapping, scroll locking and @floating-ui: roughly 20 KB gzip
// that the first screen never uses (on a phone the header has no dropdowns at all). It is
// downloaded the first time a visitor reaches for a dropdown, and every header menu switches over.
let loadedMenu: typeof LoadedMenu | undefined;
let loading: Promise<void> | undefined;
const listeners = new Set<() => void>();

function loadMenu(): void {
  loading ??= import('./header-menu-dropdown').then(
    (module) => {
      loadedMenu = module.LoadedHeaderMenu;
      for (const listener of listeners) listener();
    },
    () => {
      // Offline or a new deployment: the next hover, focus or click tries again.
      loading = undefined;
    },
  );
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const isLoaded = () => loadedMenu !== undefined;

/**
 * A dropdown of the header. Until the menu code is loaded it is its trigger button alone, which
 * starts the download when hovered, focused or clicked; a click made meanwhile opens the menu as
 * soon as it arrives, and the focus stays on the button.
 *
 * A press counts from the moment the button goes down: if the code arrives between the press and
 * the release, the button is replaced by the menu's own, and the browser fires no click at all
 * (the press and the release were on two different elements).
 */
export function HeaderMenu(props: Omit<LoadedHeaderMenuProps, 'clicked' | 'autoFocus'>) {
  const loaded = useSyncExternalStore(subscribe, isLoaded, isLoaded);
  const [clicked, setClicked] = useState(false);
  const [focused, setFocused] = useState(false);

  if (loaded && loadedMenu) {
    // One component for the whole session once loaded (not re-created per render).
    const Menu = loadedMenu;
    return <Menu {...props} clicked={clicked} autoFocus={focused} />;
  }
  // Pressed with the main mouse button, or clicked (keyboards click without a press).
  const openWhenLoaded = () => {
    setClicked(true);
    loadMenu();
  };
  return cloneElement(props.trigger, {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onPointerEnter: loadMenu,
    onPointerDown: (event: PointerEvent<HTMLButtonElement>) => {
      if (event.button === 0) openWhenLoaded();
    },
    onFocus: () => {
      setFocused(true);
      loadMenu();
    },
    onBlur: () => setFocused(false),
    onClick: openWhenLoaded,
  });
}
