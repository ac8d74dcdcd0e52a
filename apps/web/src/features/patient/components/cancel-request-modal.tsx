import { Alert, Button, Flex, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle } from '@tabler/icons-react';
import type { BloodRequest } from '@bloodbank/shared/blood-request';
import { errorMessage } from '@/lib/api-client';
import { useCancelRequest } from '../api/cancel-request';
import { formatDate, unitsText } from '@/lib/format';

/** Asks before a pending request is withdrawn; the list and the counters refresh afterwards. */
export function CancelRequestModal({
  request,
  onClose,
}: {
  request: BloodRequest | null;
  onClose: () => void;
}) {
  const cancellation = useCancelRequest();
  const close = () => {
    if (cancellation.isPending) return;
    cancellation.reset();
    onClose();
  };

  return (
    <Modal
      opened={request !== null}
      onClose={close}
      title="Cancel this request?"
      centered
      radius="lg"
      closeButtonProps={{ 'aria-label': 'Close' }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      {request ? (
        <Stack gap="md">
          <Text>
            {`Your request for ${unitsText(request.unit)} of ${request.bloodgroup} blood, needed by ${formatDate(request.date)}, will be cancelled.`}{' '}
            This cannot be undone; you can send a new request at any time.
          </Text>
          {cancellation.isError ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
              {errorMessage(cancellation.error, 'Failed to cancel your request. Please try again.')}
            </Alert>
          ) : null}
          {/* The safe choice first: on the left on a wide screen, on top (both full width) on a phone. */}
          <Flex direction={{ base: 'column', xs: 'row' }} justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={cancellation.isPending}>
              Keep Request
            </Button>
            <Button
              color="red.9"
              disabled={cancellation.isPending}
              onClick={() =>
                cancellation.mutate(request.id, {
                  onSuccess: () => {
                    notifications.show({
                      color: 'green',
                      message: 'Your request has been cancelled.',
                      closeButtonProps: { 'aria-label': 'Close notification' },
                    });
                    cancellation.reset();
                    onClose();
                  },
                })
              }
            >
              {cancellation.isPending ? 'Cancelling...' : 'Yes, Cancel Request'}
            </Button>
          </Flex>
        </Stack>
      ) : null}
    </Modal>
  );
}
