import {
  cloneElement,
  useEffect,
  useRef,
  useState,
  type ComponentPropsWithRef,
  type ReactElement,
  type ReactNode,
} from 'react';
import { Menu } from '@mantine/core';
import { Link } from 'react-router';

/** A link (`to`) or an action (`onClick`) of a header dropdown. */
export interface HeaderMenuItem {
  label: string;
  to?: string;
  onClick?: () => void;
  leftSection?: ReactNode;
}

export interface LoadedHeaderMenuProps {
  trigger: ReactElement<ComponentPropsWithRef<'button'>>;
  width: number;
  items: readonly HeaderMenuItem[];
  /** The trigger was clicked before this code arrived: open at once. */
  clicked: boolean;
  /** The trigger had the keyboard focus before this code arrived: keep it on the new button. */
  autoFocus: boolean;
}

/** The Mantine menu behind a header dropdown; loaded on demand by HeaderMenu (header-menu.tsx). */
export function LoadedHeaderMenu({ trigger, width, items, clicked, autoFocus }: LoadedHeaderMenuProps) {
  const triggerRef = useRef<HTMLButtonElement>(null);
  const replayed = useRef(false);
  useEffect(() => {
    // The early click is replayed on the real trigger (rather than defaultOpened) so the menu opens
    // as on any later click and gives the focus back to its trigger when it closes.
    if (clicked && !replayed.current) {
      replayed.current = true;
      triggerRef.current?.click();
    }
  }, [clicked]);

  const [opened, setOpened] = useState(false);

  return (
    <Menu position="bottom-end" shadow="md" width={width} opened={opened} onChange={setOpened}>
      <Menu.Target>{cloneElement(trigger, { ref: triggerRef, autoFocus })}</Menu.Target>
      <Menu.Dropdown
        // A menu button's Tab leaves the menu (WAI-ARIA menu button pattern); Mantine's focus trap
        // (kept: it puts the keyboard in the menu, where the arrows and Escape work) kept Tab in it.
        // The dropdown sits at the end of the page, so the keyboard goes back to the button, and on
        // from there.
        onKeyDown={(event) => {
          if (event.key !== 'Tab') return;
          event.preventDefault();
          setOpened(false);
          triggerRef.current?.focus();
        }}
      >
        {items.map((item) =>
          item.to !== undefined ? (
            <Menu.Item key={item.to} component={Link} to={item.to} leftSection={item.leftSection}>
              {item.label}
            </Menu.Item>
          ) : (
            <Menu.Item key={item.label} leftSection={item.leftSection} onClick={item.onClick}>
              {item.label}
            </Menu.Item>
          ),
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
