import type { BloodRequest } from '@bloodbank/shared/blood-request';
import { ConfirmCancelModal } from '@/components/ui/confirm-cancel-modal';
import { formatDate, unitsText } from '@/lib/format';
import { useCancelRequest } from '../api/cancel-request';

/** Asks before a pending request is withdrawn; the list and the counters refresh afterwards. */
export function CancelRequestModal({
  request,
  onClose,
}: {
  request: BloodRequest | null;
  onClose: () => void;
}) {
  const cancellation = useCancelRequest();
  return (
    <ConfirmCancelModal
      id={request?.id ?? null}
      cancellation={cancellation}
      onClose={onClose}
      // The request stays listed, now cancelled and without its Cancel button: focus goes to its row.
      focusAfterCancel={(id) => document.querySelector<HTMLElement>(`[data-testid="request-${id}"]`)}
      texts={{
        title: 'Cancel this request?',
        body: request ? (
          <>
            {`Your request for ${unitsText(request.unit)} of ${request.bloodgroup} blood, needed by ${formatDate(request.date)}, will be cancelled.`}{' '}
            This cannot be undone; you can send a new request at any time.
          </>
        ) : null,
        keepLabel: 'Keep Request',
        confirmLabel: 'Yes, Cancel Request',
        failed: 'Failed to cancel your request. Please try again.',
        done: 'Your request has been cancelled.',
      }}
    />
  );
}
