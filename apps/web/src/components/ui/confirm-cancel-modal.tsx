import { useState, type ReactNode } from 'react';
import { Alert, Button, Flex, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle } from '@tabler/icons-react';
import type { UseMutationResult } from '@tanstack/react-query';
import { errorMessage } from '@/lib/api-client';
import { useFocusAfterAction } from '@/lib/use-focus-after-action';

export interface ConfirmCancelTexts {
  /** "Cancel this request?" */
  title: string;
  /** What will be cancelled, and what the person can do next. */
  body: ReactNode;
  /** The safe choice: "Keep Request". */
  keepLabel: string;
  /** "Yes, Cancel Request". */
  confirmLabel: string;
  /** Shown when the cancellation fails and the answer has no message of its own. */
  failed: string;
  /** The notification once it is done. */
  done: string;
}

/**
 * Asks a donor or a patient before their own pending booking or request is cancelled (PRODUCT.md
 * 3.2, 3.5): open while `id` is not null; the mutation cancels that id.
 */
export function ConfirmCancelModal({
  id,
  texts,
  cancellation,
  onClose,
  focusAfterCancel,
}: {
  id: number | null;
  texts: ConfirmCancelTexts;
  cancellation: UseMutationResult<unknown, Error, number>;
  onClose: () => void;
  /**
   * Where focus goes once `id` is cancelled: the button that opened the dialog goes away with the
   * booking or request it cancelled, and focus would fall to the page's start.
   */
  focusAfterCancel: (id: number) => HTMLElement | null;
}) {
  // After a cancellation the dialog does not give focus back to its (vanishing) button.
  const afterCancel = useFocusAfterAction();
  const [shownFor, setShownFor] = useState(id);
  if (id !== shownFor) {
    setShownFor(id);
    if (id !== null) afterCancel.reset();
  }
  const close = () => {
    if (cancellation.isPending) return;
    cancellation.reset();
    onClose();
  };
  return (
    <Modal
      opened={id !== null}
      onClose={close}
      returnFocus={afterCancel.returnFocus}
      title={texts.title}
      centered
      radius="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {id !== null ? (
        <Stack gap="md">
          <Text>{texts.body}</Text>
          {cancellation.isError ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
              {errorMessage(cancellation.error, texts.failed)}
            </Alert>
          ) : null}
          {/* The safe choice first: on the left on a wide screen, on top (both full width) on a phone. */}
          <Flex direction={{ base: 'column', xs: 'row' }} justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={cancellation.isPending}>
              {texts.keepLabel}
            </Button>
            <Button
              color="red.9"
              disabled={cancellation.isPending}
              onClick={() =>
                cancellation.mutate(id, {
                  onSuccess: () => {
                    notifications.show({
                      color: 'green',
                      message: texts.done,
                      closeButtonProps: { 'aria-label': 'Close notification' },
                    });
                    cancellation.reset();
                    afterCancel.moveTo(() => focusAfterCancel(id));
                    onClose();
                  },
                })
              }
            >
              {cancellation.isPending ? 'Cancelling...' : texts.confirmLabel}
            </Button>
          </Flex>
        </Stack>
      ) : null}
    </Modal>
  );
}
