import { Card, Group, SimpleGrid, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import type { InventoryRow } from '@bloodbank/shared/admin';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import { StatusBadge } from './status-badge';
import classes from './blood-stock-summary.module.css';
import { TEXT_TONE } from '../tones';

interface BloodStockSummaryProps {
  inventory: InventoryRow[];
  /** The group the unit list is filtered by, if any. */
  selected: BloodGroup | '';
  onSelect: (group: BloodGroup | '') => void;
}

/**
 * Per group: usable units (red cells and whole blood, "units of blood"), each component's stock, of
 * the stock what expires within 7 days, expired units still on the shelf, and units in testing or
 * on hold (never stock).
 */
export function BloodStockSummary({ inventory, selected, onSelect }: BloodStockSummaryProps) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
      {inventory.map((row) => (
        <Card
          key={row.bloodgroup}
          withBorder
          radius="md"
          p={0}
          className={classes.card}
          data-selected={selected === row.bloodgroup}
        >
          <UnstyledButton
            className={classes.button}
            onClick={() => onSelect(selected === row.bloodgroup ? '' : row.bloodgroup)}
            aria-pressed={selected === row.bloodgroup}
          >
            <Group justify="space-between" align="center" wrap="nowrap" gap={4}>
              <Text fw={800} fz="xl">
                {row.bloodgroup}
              </Text>
              {row.units === 0 ? (
                <StatusBadge status="low" label="Out" />
              ) : row.critical ? (
                <StatusBadge status="low" label="Critical" />
              ) : row.low ? (
                <StatusBadge status="low" label="Low" />
              ) : null}
            </Group>
            <Stack gap={0} mt={6}>
              <Text size="sm">
                <Text span fw={700} fz="lg">
                  {row.units}
                </Text>{' '}
                available
              </Text>
              <Text size="xs" data-testid={`components-${row.bloodgroup}`}>
                <Count label="Whole blood" value={row.components.whole_blood} /> ·{' '}
                <Count label="Red cells" value={row.components.red_cells} />
              </Text>
              <Text size="xs" mb={4}>
                <Count label="Plasma" value={row.components.plasma} /> ·{' '}
                <Count label="Platelets" value={row.components.platelets} />
              </Text>
              {/* Of every component, where the headline counts red cells and whole blood: said, so
                  a platelet about to expire does not read as the group's last red-cell unit. */}
              <Text size="xs" c={row.expiring_soon > 0 ? TEXT_TONE.orange : 'dimmed'}>
                {row.expiring_soon} expiring soon (any component)
              </Text>
              <Text size="xs" c={row.expired > 0 ? TEXT_TONE.red : 'dimmed'}>
                {row.expired} expired (any component)
              </Text>
              <Text size="xs" c={row.in_testing + row.on_hold > 0 ? TEXT_TONE.blue : 'dimmed'}>
                <span style={{ whiteSpace: 'nowrap' }}>{row.in_testing} in testing</span> ·{' '}
                <span style={{ whiteSpace: 'nowrap' }}>{row.on_hold} on hold</span>
              </Text>
            </Stack>
            <VisuallyHidden>Show the {row.bloodgroup} units</VisuallyHidden>
          </UnstyledButton>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/** "Red cells 3", never broken across lines on a narrow card: lines break between the counts. */
function Count({ label, value }: { label: string; value: number }) {
  return (
    <span style={{ whiteSpace: 'nowrap' }}>
      {label} {value}
    </span>
  );
}
