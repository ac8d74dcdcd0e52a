import { useRef, useState } from 'react';
import { Box, Button, Group, Paper, Text, ThemeIcon, Title } from '@mantine/core';
import { IconDroplet } from '@tabler/icons-react';
import type { Donation, DonorSummary } from '@bloodbank/shared/donation';
import { BankContactLine } from '@/components/ui/bank-contact';
import { ConfirmCancelModal } from '@/components/ui/confirm-cancel-modal';
import { formatDate, unitsText } from '@/lib/format';
import { useCancelDonation } from '../api/cancel-donation';
import { AddToCalendarButton, AppointmentSummary } from './appointment-summary';
import { latestBookingState } from './donation-status';
import { MoveBookingModal } from './move-booking-modal';

/**
 * The donor's latest booking and where it stands, in words (PRODUCT.md 3.2); a pending booking can
 * be cancelled here, after a confirmation.
 */
export function LatestBooking({
  donation,
  deferred,
}: {
  donation: Donation;
  deferred: DonorSummary['deferred'];
}) {
  const [confirming, setConfirming] = useState(false);
  const [moving, setMoving] = useState(false);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const state = latestBookingState(donation, deferred);
  const pending = donation.status === 'pending';
  return (
    <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby="latest-booking-title">
      <Group gap="sm" mb="sm" wrap="nowrap">
        <ThemeIcon size={36} radius="xl" variant="light" aria-hidden>
          <IconDroplet size={20} />
        </ThemeIcon>
        <Title order={2} size="h4" id="latest-booking-title" ref={titleRef} tabIndex={-1}>
          Your Latest Booking
        </Title>
      </Group>
      <Text fw={700} size="xl" data-testid="latest-booking-state">
        {state.headline}
      </Text>
      <Text size="sm" c="dimmed">
        {unitsText(donation.unit)}, booked for {formatDate(donation.date)}
      </Text>
      {pending && donation.appointment ? (
        <Box mt="sm">
          <AppointmentSummary date={donation.date} appointment={donation.appointment} />
        </Box>
      ) : null}
      {state.detail ? (
        <Text size="sm" mt={pending && donation.appointment ? 'xs' : 4}>
          {state.detail}
        </Text>
      ) : null}
      {/* "Your donation needs follow-up. Please contact the blood bank.": how. */}
      {donation.status === 'follow_up' ? <BankContactLine mt={4} /> : null}
      {pending ? (
        <Group mt="md" gap="sm">
          <Button variant="light" onClick={() => setMoving(true)}>
            Move Booking
          </Button>
          <AddToCalendarButton donationId={donation.id} />
          <Button variant="outline" color="red.9" onClick={() => setConfirming(true)}>
            Cancel Booking
          </Button>
        </Group>
      ) : null}
      <MoveBookingModal donation={moving ? donation : null} onClose={() => setMoving(false)} />
      <CancelBookingModal
        donation={confirming ? donation : null}
        onClose={() => setConfirming(false)}
        // The booking stays here, now cancelled, without its buttons: its heading takes the focus.
        focusAfterCancel={() => titleRef.current}
      />
    </Paper>
  );
}

function CancelBookingModal({
  donation,
  onClose,
  focusAfterCancel,
}: {
  donation: Donation | null;
  onClose: () => void;
  focusAfterCancel: () => HTMLElement | null;
}) {
  const cancellation = useCancelDonation();
  return (
    <ConfirmCancelModal
      id={donation?.id ?? null}
      cancellation={cancellation}
      onClose={onClose}
      focusAfterCancel={focusAfterCancel}
      texts={{
        title: 'Cancel this booking?',
        body: donation ? (
          <>
            {`Your booking to donate ${unitsText(donation.unit)} on ${formatDate(donation.date)}${donation.appointment ? ` at ${donation.appointment.time}, ${donation.appointment.site_name},` : ''} will be cancelled.`}{' '}
            You can book again at any time.
          </>
        ) : null,
        keepLabel: 'Keep Booking',
        confirmLabel: 'Yes, Cancel Booking',
        failed: 'Failed to cancel your booking. Please try again.',
        done: 'Your booking has been cancelled.',
      }}
    />
  );
}
