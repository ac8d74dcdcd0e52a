import { Fragment, useState, type ReactNode } from 'react';
import { Modal } from '@mantine/core';

/**
 * The dialog of one staff step on one item (record a collection, record test results, process a
 * unit): open while `item` is not null, its body made afresh for each item, and not closable while
 * the body says it is busy (a request on its way).
 */
export function StepModal<Item extends { id: number }>({
  item,
  title,
  returnFocus = true,
  onClose,
  children,
}: {
  item: Item | null;
  title: (item: Item) => string;
  /** False once the step has removed the button that opened the dialog (useFocusAfterAction). */
  returnFocus?: boolean;
  onClose: () => void;
  children: (item: Item, onBusy: (busy: boolean) => void) => ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      opened={item !== null}
      onClose={busy ? () => undefined : onClose}
      title={item ? title(item) : ''}
      centered
      returnFocus={returnFocus}
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {item ? <Fragment key={item.id}>{children(item, setBusy)}</Fragment> : null}
    </Modal>
  );
}
