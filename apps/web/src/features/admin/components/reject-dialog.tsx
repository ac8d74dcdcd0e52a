import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { RejectSchema } from '@bloodbank/shared/admin';
import { ApiError, errorMessage } from '@/lib/api-client';
import { applyServerFieldErrors, fieldBinder } from '@/lib/form-errors';
import { DANGER } from '../tones';

interface RejectForm {
  reason: string;
}

interface RejectDialogProps {
  /** What is being rejected; null keeps the dialog closed. */
  subject: { title: string; summary: string } | null;
  /** Who reads the reason: "the donor" / "the patient". */
  audience: string;
  /** Sends the rejection; the dialog shows a failure itself and the caller closes it on success. */
  onReject: (reason: string) => Promise<unknown>;
  onClose: () => void;
  /** False once the rejection has removed the button that opened the dialog (useFocusAfterAction). */
  returnFocus?: boolean;
}

/** Reject with an optional reason (RejectSchema: at most 500 characters) that the donor or patient sees. */
export function RejectDialog({
  subject,
  audience,
  onReject,
  onClose,
  returnFocus = true,
}: RejectDialogProps) {
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      opened={subject !== null}
      onClose={busy ? () => undefined : onClose}
      title={subject?.title ?? ''}
      centered
      returnFocus={returnFocus}
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {subject ? (
        <RejectFormBody
          summary={subject.summary}
          audience={audience}
          onReject={onReject}
          onClose={onClose}
          onBusy={setBusy}
        />
      ) : null}
    </Modal>
  );
}

interface RejectFormBodyProps {
  summary: string;
  audience: string;
  onReject: (reason: string) => Promise<unknown>;
  onClose: () => void;
  onBusy: (busy: boolean) => void;
}

function RejectFormBody({ summary, audience, onReject, onClose, onBusy }: RejectFormBodyProps) {
  const form = useForm<RejectForm>({
    // The schema also accepts a missing body (null); a form always has an object.
    resolver: zodResolver(
      RejectSchema as unknown as z.ZodType<RejectForm, RejectForm>,
    ) as unknown as Resolver<RejectForm>,
    defaultValues: { reason: '' },
  });
  const field = fieldBinder(form);
  const [failure, setFailure] = useState<string | null>(null);
  const busy = form.formState.isSubmitting;

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    onBusy(true);
    try {
      await onReject(values.reason);
    } catch (error) {
      applyServerFieldErrors(form, error, ['reason']);
      if (!(error instanceof ApiError && error.errors.reason)) {
        setFailure(errorMessage(error, 'The rejection could not be saved. Please try again.'));
      }
    } finally {
      onBusy(false);
    }
  });

  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <Stack gap="md">
        <Text size="sm">{summary}</Text>
        <Textarea
          label="Reason (optional)"
          description={`Shown to ${audience}. At most 500 characters.`}
          autosize
          minRows={3}
          maxRows={8}
          data-autofocus
          {...field('reason')}
        />
        {failure ? (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" color={DANGER} disabled={busy}>
            {busy ? 'Rejecting...' : 'Reject'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
