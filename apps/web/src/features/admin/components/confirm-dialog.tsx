import type { ReactNode } from 'react';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { DANGER } from '../tones';

interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The button that changes nothing; "Cancel" unless the action itself is a cancelling. */
  cancelLabel?: string;
  busyLabel: string;
  busy: boolean;
  /** The failure of the last attempt, shown inside the dialog. */
  error?: string | null;
  color?: string;
  /** False once the action has removed the control that opened the dialog (useFocusAfterAction). */
  returnFocus?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** "Are you sure?" for a change that cannot be undone from the screen (deactivate, discard). */
export function ConfirmDialog({
  opened,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  busyLabel,
  busy,
  error,
  color = DANGER,
  returnFocus = true,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={busy ? () => undefined : onClose}
      title={title}
      centered
      returnFocus={returnFocus}
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      <Stack gap="md">
        {typeof children === 'string' ? <Text size="sm">{children}</Text> : children}
        {error ? (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy}>
            {cancelLabel}
          </Button>
          <Button color={color} onClick={onConfirm} disabled={busy}>
            {busy ? busyLabel : confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
