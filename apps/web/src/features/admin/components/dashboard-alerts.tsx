import { COMPONENT_WORDS, type Component } from '@bloodbank/shared/components';
import { Anchor, Badge, Group, List, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconClockExclamation } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { AdminDashboard, InventoryRow } from '@bloodbank/shared/admin';
import { daysBetween } from '@bloodbank/shared/dates';
import { useBankToday } from '@/lib/bank-today';
import { paths } from '@/app/paths';
import { formatDate, unitsText } from '@/lib/format';
import { SectionCard } from './section-card';
import { TEXT_TONE } from '../tones';
import { BLOOD_ANCHORS } from '../anchors';

/** Groups under the threshold (PRODUCT.md 3.3), emptiest first. */
export function LowStockAlerts({ inventory, threshold }: { inventory: InventoryRow[]; threshold: number }) {
  const low = inventory.filter((row) => row.low).sort((a, b) => a.units - b.units);
  return (
    <SectionCard
      title="Low Stock Alerts"
      actions={
        low.length > 0 ? (
          <Anchor
            component={Link}
            to={`${paths.admin.blood}#${BLOOD_ANCHORS.receiveUnits}`}
            size="sm"
            fw={600}
          >
            Receive units
          </Anchor>
        ) : null
      }
    >
      {low.length === 0 ? (
        <Group gap="xs" wrap="nowrap">
          <ThemeIcon variant="light" color="teal" radius="xl" aria-hidden>
            <IconCircleCheck size={18} />
          </ThemeIcon>
          <Text size="sm">Every blood group has at least {threshold} units.</Text>
        </Group>
      ) : (
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            {low.length === 1 ? 'One group is' : `${low.length} groups are`} under {threshold} units:
          </Text>
          <List spacing={6} listStyleType="none" p={0} m={0}>
            {low.map((row) => (
              <List.Item key={row.bloodgroup}>
                <Group gap="xs" wrap="nowrap">
                  <IconAlertTriangle size={18} color="var(--mantine-color-orange-8)" aria-hidden />
                  <Text fw={700} w={36}>
                    {row.bloodgroup}
                  </Text>
                  <Text size="sm">{row.units === 0 ? 'out of stock' : `${unitsText(row.units)} left`}</Text>
                </Group>
              </List.Item>
            ))}
          </List>
        </Stack>
      )}
    </SectionCard>
  );
}

/**
 * Units that expire within 7 days, grouped by day, blood group and component: use these first. And
 * the units already past their date but still on the shelf (`expired`), which are no stock and
 * wait to be discarded: said first, or staff saw them only in the bell and in Manage Blood.
 */
export function ExpiringUnits({
  units,
  expired,
}: {
  units: AdminDashboard['expiringUnits'];
  expired: number;
}) {
  const today = useBankToday();
  const groups = new Map<
    string,
    { bloodgroup: string; component: Component; expires_on: string; count: number }
  >();
  for (const unit of units) {
    const key = `${unit.expires_on}|${unit.bloodgroup}|${unit.component}`;
    const entry = groups.get(key) ?? {
      bloodgroup: unit.bloodgroup,
      component: unit.component,
      expires_on: unit.expires_on,
      count: 0,
    };
    entry.count += 1;
    groups.set(key, entry);
  }
  const rows = [...groups.values()].sort(
    (a, b) =>
      a.expires_on.localeCompare(b.expires_on) ||
      a.bloodgroup.localeCompare(b.bloodgroup) ||
      a.component.localeCompare(b.component),
  );

  return (
    <SectionCard
      title="Expiring Within 7 Days"
      actions={
        rows.length > 0 ? (
          <Anchor
            component={Link}
            to={`${paths.admin.blood}?status=available#${BLOOD_ANCHORS.units}`}
            size="sm"
            fw={600}
          >
            See units
          </Anchor>
        ) : null
      }
    >
      {expired > 0 ? (
        <Group gap="xs" wrap="nowrap" mb="sm" data-testid="expired-on-shelf">
          <IconAlertTriangle
            size={18}
            color="var(--mantine-color-red-8)"
            aria-hidden
            style={{ flexShrink: 0 }}
          />
          <Text size="sm">
            {expired === 1 ? '1 unit is' : `${expired} units are`} past expiry and still on the shelf: not
            stock, to be discarded.{' '}
            <Anchor
              component={Link}
              to={`${paths.admin.blood}?status=expired#${BLOOD_ANCHORS.units}`}
              size="sm"
              fw={600}
            >
              See expired units
            </Anchor>
          </Text>
        </Group>
      ) : null}
      {rows.length === 0 ? (
        <Group gap="xs" wrap="nowrap">
          <ThemeIcon variant="light" color="teal" radius="xl" aria-hidden>
            <IconCircleCheck size={18} />
          </ThemeIcon>
          <Text size="sm">No units expire in the next 7 days.</Text>
        </Group>
      ) : (
        <List spacing={6} listStyleType="none" p={0} m={0}>
          {rows.map((row) => {
            const days = daysBetween(today, row.expires_on);
            return (
              <List.Item key={`${row.expires_on}-${row.bloodgroup}-${row.component}`}>
                <Group gap="xs" wrap="nowrap" align="center">
                  <IconClockExclamation size={18} color="var(--mantine-color-orange-8)" aria-hidden />
                  <Text fw={700} w={36}>
                    {row.bloodgroup}
                  </Text>
                  <Text size="sm" style={{ flex: 1 }}>
                    {unitsText(row.count)} of {COMPONENT_WORDS[row.component]} on {formatDate(row.expires_on)}
                  </Text>
                  <Badge
                    variant="light"
                    color="orange"
                    c={TEXT_TONE.orange}
                    style={{ textTransform: 'none' }}
                    // Never truncated to "Act…" when a table column is squeezed.
                    styles={{ label: { overflow: 'visible' } }}
                  >
                    {days <= 0 ? 'today' : days === 1 ? 'tomorrow' : `in ${days} days`}
                  </Badge>
                </Group>
              </List.Item>
            );
          })}
        </List>
      )}
    </SectionCard>
  );
}
