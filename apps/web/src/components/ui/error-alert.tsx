import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertCircle, IconRefresh } from '@tabler/icons-react';

interface ErrorAlertProps {
  message: string;
  title?: string;
  /** Shows a Retry button when given. */
  onRetry?: () => void;
  retrying?: boolean;
}

/** A failed load or action: what went wrong and, where it makes sense, a way to try again. */
export function ErrorAlert({
  message,
  title = 'Something went wrong',
  onRetry,
  retrying = false,
}: ErrorAlertProps) {
  return (
    <Alert
      color="red"
      variant="light"
      title={title}
      icon={<IconAlertCircle aria-hidden />}
      role="alert"
      // The default light-red title is under 4.5:1 on its tinted background.
      styles={{ title: { color: 'var(--mantine-color-red-9)' } }}
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm">{message}</Text>
        {onRetry ? (
          <Button
            size="xs"
            variant="default"
            leftSection={<IconRefresh size={14} aria-hidden />}
            onClick={onRetry}
            disabled={retrying}
          >
            {retrying ? 'Retrying...' : 'Retry'}
          </Button>
        ) : null}
      </Group>
    </Alert>
  );
}

/** A change that could not be saved, said beside the form that stays open (no title, no retry: the form's own button retries). */
export function SaveErrorAlert({ message }: { message: string }) {
  return (
    <Alert
      color="red"
      variant="light"
      role="alert"
      // Readable on the tinted background: the default light red is under 4.5:1.
      styles={{ message: { color: 'var(--mantine-color-red-9)' } }}
    >
      {message}
    </Alert>
  );
}
