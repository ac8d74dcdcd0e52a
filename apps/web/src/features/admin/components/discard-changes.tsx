import { useCallback, useRef, useState } from 'react';
import { ConfirmDialog } from './confirm-dialog';

/**
 * For a drawer holding a form: edits are easy to lose to an Escape or a click beside it, so with
 * unsaved changes closing it that way asks first (the form's own Cancel button still discards).
 * The form reports its state through `onDirtyChange`; the drawer closes through `requestClose` and
 * renders `dialog`. While the question is open (`asking`), the drawer must not close on Escape too.
 */
export function useDiscardGuard(onClose: () => void, changesTo: string) {
  const dirty = useRef(false);
  const [asking, setAsking] = useState(false);
  // What the admin was doing when asked: closing, or following a link out of the form.
  const leaving = useRef(onClose);
  /** Leaves the form by `then` (a link's navigation), asking first when there are unsaved changes. */
  const requestLeave = (then: () => void) => {
    leaving.current = then;
    if (dirty.current) setAsking(true);
    else then();
  };
  const requestClose = () => requestLeave(onClose);
  const onDirtyChange = useCallback((isDirty: boolean) => {
    dirty.current = isDirty;
  }, []);
  const dialog = (
    <ConfirmDialog
      opened={asking}
      title="Discard your changes?"
      confirmLabel="Discard changes"
      // Not "Cancel": beside the form's own Cancel, which throws the changes away.
      cancelLabel="Keep editing"
      busyLabel="Discarding..."
      busy={false}
      onConfirm={() => {
        setAsking(false);
        dirty.current = false;
        leaving.current();
      }}
      onClose={() => setAsking(false)}
    >
      {`The changes to ${changesTo} are not saved yet.`}
    </ConfirmDialog>
  );
  return { requestClose, requestLeave, onDirtyChange, asking, dialog };
}
