import { Alert, Anchor, Badge, Button, Group, Modal, Paper, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { AdminRequest, InsufficientStock } from '@bloodbank/shared/admin';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import { COMPONENT_WORDS } from '@bloodbank/shared/components';
import { paths } from '@/app/paths';
import { unitsText } from '@/lib/format';

/** How the listed groups were chosen, for the components whose rule is not the spec's red-cell table. */
const RULES: Partial<Record<keyof typeof COMPONENT_WORDS, string>> = {
  plasma: 'Plasma runs the other way round from red cells: AB plasma can go to anyone, O plasma only to O.',
  platelets: 'Platelets can come from any group; the same ABO group is listed first.',
};

interface ShortStockDialogProps {
  /** The request that could not be approved and the server's 409 body; null keeps the dialog closed. */
  shortage: { request: AdminRequest; stock: InsufficientStock } | null;
  /** The group being approved from right now, if any. */
  approvingFrom: BloodGroup | null;
  error: string | null;
  onApproveFrom: (group: BloodGroup) => void;
  onClose: () => void;
}

/**
 * The requested group lacks stock (PRODUCT.md 3.3): the server's words, then the compatible groups
 * that can cover the whole request, each one click from approval.
 */
export function ShortStockDialog({
  shortage,
  approvingFrom,
  error,
  onApproveFrom,
  onClose,
}: ShortStockDialogProps) {
  const busy = approvingFrom !== null;
  return (
    <Modal
      opened={shortage !== null}
      onClose={busy ? () => undefined : onClose}
      title="Not enough stock"
      centered
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
      size="lg"
    >
      {shortage ? (
        <Stack gap="md">
          <Alert color="orange" variant="light" icon={<IconAlertTriangle aria-hidden />} role="alert">
            <Text size="sm" c="dark.8">
              {shortage.stock.detail}
            </Text>
          </Alert>
          <Text size="sm">
            Request #{shortage.request.id} from {shortage.request.patient_name} needs{' '}
            {unitsText(shortage.request.unit)} of <strong>{shortage.request.bloodgroup}</strong>{' '}
            {COMPONENT_WORDS[shortage.request.component]}.
          </Text>

          {shortage.stock.compatible.length > 0 ? (
            <Stack gap="xs">
              <Text size="sm" fw={600}>
                Compatible groups with {COMPONENT_WORDS[shortage.request.component]} in stock
              </Text>
              {RULES[shortage.request.component] ? (
                <Text size="xs" c="dimmed">
                  {RULES[shortage.request.component]}
                </Text>
              ) : null}
              <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
                {shortage.stock.compatible.map((group) => (
                  <Paper key={group.bloodgroup} component="li" withBorder radius="md" p="sm">
                    <Group justify="space-between" gap="sm" wrap="wrap">
                      <Group gap="sm" wrap="nowrap">
                        <Badge size="lg" variant="light" color="blood" c="blood.8" radius="sm">
                          {group.bloodgroup}
                        </Badge>
                        <Text size="sm">{unitsText(group.units)} available</Text>
                      </Group>
                      <Button size="sm" onClick={() => onApproveFrom(group.bloodgroup)} disabled={busy}>
                        {approvingFrom === group.bloodgroup
                          ? 'Approving...'
                          : `Approve from ${group.bloodgroup}`}
                      </Button>
                    </Group>
                  </Paper>
                ))}
              </Stack>
            </Stack>
          ) : (
            <Text size="sm">
              No compatible group has enough stock to cover this request. Receive units on{' '}
              <Anchor component={Link} to={paths.admin.blood}>
                Manage Blood
              </Anchor>
              , or reject the request.
            </Text>
          )}

          {error ? (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          ) : null}

          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              Close
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
