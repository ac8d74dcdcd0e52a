import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconRefresh } from '@tabler/icons-react';
import { alertTitleStyles } from './readable-colors';

interface LoadErrorProps {
  message: string;
  /** "Error!" on the game dashboard (spec section 2). */
  title?: string;
  onRetry: () => void;
  retrying: boolean;
}

/**
 * A failed load with a Retry button. The shared ErrorAlert draws its title and button in red 6,
 * under 4.5:1 on the tint; this keeps every text at AA contrast.
 */
export function LoadError({ message, title = 'Something went wrong', onRetry, retrying }: LoadErrorProps) {
  return (
    <Alert
      color="red"
      variant="light"
      title={title}
      styles={alertTitleStyles('red')}
      icon={<IconAlertCircle aria-hidden />}
      role="alert"
    >
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{message}</Text>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconRefresh size={14} aria-hidden />}
          onClick={onRetry}
          disabled={retrying}
        >
          {retrying ? 'Retrying...' : 'Retry'}
        </Button>
      </Stack>
    </Alert>
  );
}
