import { useRef, type Key } from 'react';
import { useFocusAfterAction } from '@/lib/use-focus-after-action';

/**
 * The same action (`[data-action="…"]`) in the first later row of a DataTable inside `scope` that
 * has it: where focus goes on once an action has taken its own row's button away.
 */
export function nextRowAction(scope: ParentNode | null, rowKey: Key, action: string): HTMLElement | null {
  const row = scope?.querySelector(`[data-row-key="${String(rowKey)}"]`);
  for (let next = row?.nextElementSibling; next; next = next.nextElementSibling) {
    const found = next.querySelector<HTMLElement>(`[data-action="${action}"]`);
    if (found) return found;
  }
  return null;
}

/** The heading of a ScreenSection, by the section's id. */
export const sectionHeading = (sectionId: string) => () => document.getElementById(`${sectionId}-heading`);

/**
 * useFocusAfterAction for a dialog opened from a row's button that the action takes away (the row
 * leaves its list, or loses the action): focus goes on to the same action in the next row, or to
 * `fallback` (the section's heading) when there is none. The next row is found as the dialog opens,
 * while the row is still on screen: a write's promise settles only after the lists are fetched
 * again, when the row may be gone.
 */
export function useFocusNextRow() {
  const after = useFocusAfterAction();
  const target = useRef<() => HTMLElement | null>(() => null);
  return {
    /** The dialog's `returnFocus`. */
    returnFocus: after.returnFocus,
    /** As the dialog opens for the row `rowKey` of the table in `scope`. */
    open: (scope: ParentNode | null, rowKey: Key, action: string, fallback: () => HTMLElement | null) => {
      after.reset();
      const next = nextRowAction(scope, rowKey, action);
      target.current = () => (next?.isConnected ? next : fallback());
    },
    /** When the action succeeded, as the dialog closes. */
    done: () => after.moveTo(target.current),
  };
}
