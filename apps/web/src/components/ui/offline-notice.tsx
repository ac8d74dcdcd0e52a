import { Alert } from '@mantine/core';
import { IconWifiOff } from '@tabler/icons-react';
import { OFFLINE_WAITING } from '@/lib/api-client';

/**
 * Said beside a form's button while its send waits for the phone to be online again (TanStack
 * pauses a write while the browser is offline and sends it when the connection is back): alone,
 * "Submitting..." looked stuck for as long as the phone was offline.
 */
export function OfflineNotice({ waiting }: { waiting: boolean }) {
  return waiting ? (
    <Alert color="yellow" variant="light" icon={<IconWifiOff aria-hidden />} role="status">
      {OFFLINE_WAITING}
    </Alert>
  ) : null;
}
