/**
 * A button busy with what it started: it looks disabled and its press is ignored (the caller checks
 * `busy`), but it is not `disabled`, which would drop the keyboard's focus to the page while it
 * waits: a screen reader user pressing Enter on it was left nowhere.
 */
export function busyButtonProps(busy: boolean) {
  return { 'aria-disabled': busy || undefined, 'data-disabled': busy || undefined } as const;
}
