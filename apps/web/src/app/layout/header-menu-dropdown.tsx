import {
  cloneElement,
  useEffect,
  useRef,
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

  return (
    <Menu position="bottom-end" shadow="md" width={width}>
      <Menu.Target>{cloneElement(trigger, { ref: triggerRef, autoFocus })}</Menu.Target>
      <Menu.Dropdown>
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
