import { Anchor, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Link } from 'react-router';
import type { InventoryRow } from '@bloodbank/shared/admin';
import { COMPONENT_LABELS, type Component } from '@bloodbank/shared/components';
import { paths } from '@/app/paths';
import { COMPONENT_ORDER } from './component-options';
import { SectionCard } from './section-card';
import { StatusBadge } from './status-badge';
import { TEXT_TONE } from '../tones';
import { formatCount } from '@/lib/format';

/** Whole blood first: what a collection yields, then what it is separated into. */
const COLUMNS: readonly Component[] = ['whole_blood', ...COMPONENT_ORDER.filter((c) => c !== 'whole_blood')];

/**
 * Units in testing, and under them those on a lookback hold when there are any: one column, so the
 * table still fits its card beside the chart (a column of its own made it overflow at 1280 px).
 */
function InTesting({ inTesting, onHold }: { inTesting: number; onHold: number }) {
  return (
    <>
      {inTesting}
      {onHold > 0 ? (
        <Text size="xs" c={TEXT_TONE.blue} style={{ whiteSpace: 'nowrap' }}>
          {onHold} on hold
        </Text>
      ) : null}
    </>
  );
}

const sumOf = (inventory: InventoryRow[], read: (row: InventoryRow) => number) =>
  inventory.reduce((sum, row) => sum + read(row), 0);

/**
 * Spec section 2: the Blood Inventory card, units per blood group (usable stock only), one column
 * per component (PRODUCT.md 3.3). The status follows the red-cell units (red cells + whole blood);
 * units in testing and on a lookback hold are shown apart, never as stock. The total is every component: the count card's
 * Total Blood Units.
 */
export function DashboardInventory({ inventory, total }: { inventory: InventoryRow[]; total: number }) {
  // A column per component where there is room; on a phone, each group's components in one cell.
  const wide = useMediaQuery('(min-width: 40em)', true, { getInitialValueInEffect: false });
  return (
    <SectionCard
      title="Blood Inventory"
      actions={
        <Anchor component={Link} to={paths.admin.blood} size="sm" fw={600}>
          Manage Blood
        </Anchor>
      }
    >
      {wide ? (
        // Scrolls sideways rather than cutting its last column ("Out of stock" read "Out of") when a
        // reader's own text spacing (WCAG 1.4.12) widens it past the card.
        <div style={{ overflowX: 'auto' }}>
          <WideInventory inventory={inventory} />
        </div>
      ) : (
        <CompactInventory inventory={inventory} total={total} />
      )}
      <Text size="sm" mt="sm" data-testid="inventory-total">
        <Text span fw={700}>
          {formatCount(total)}
        </Text>{' '}
        usable units of every component. The status follows red cells and whole blood, the units most requests
        need; units in testing or on a lookback hold are not stock.
      </Text>
    </SectionCard>
  );
}

function StatusCell({ row }: { row: InventoryRow }) {
  // The home page's words for the same shelf (Critical, Low), so staff and the public read alike.
  return row.units === 0 ? (
    <StatusBadge status="low" label="Out of stock" />
  ) : row.critical ? (
    <StatusBadge status="low" label="Critical" />
  ) : row.low ? (
    <StatusBadge status="low" label="Low" />
  ) : (
    <StatusBadge status="ok" label="OK" />
  );
}

/** Tighter than Mantine's 10 px, so eight columns fit the dashboard's column. */
function WideInventory({ inventory }: { inventory: InventoryRow[] }) {
  return (
    <Table
      verticalSpacing={6}
      horizontalSpacing={6}
      striped="even"
      aria-label="Units per blood group"
      data-testid="inventory-table"
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Blood Group</Table.Th>
          {COLUMNS.map((component) => (
            <Table.Th scope="col" ta="right" key={component}>
              {COMPONENT_LABELS[component]}
            </Table.Th>
          ))}
          <Table.Th scope="col" ta="right">
            Expiring in 7 days
          </Table.Th>
          <Table.Th scope="col" ta="right">
            In testing
          </Table.Th>
          <Table.Th scope="col">Status</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {inventory.map((row) => (
          <Table.Tr key={row.bloodgroup} data-testid={`inventory-${row.bloodgroup}`}>
            <Table.Th scope="row">{row.bloodgroup}</Table.Th>
            {COLUMNS.map((component) => (
              <Table.Td ta="right" key={component} data-component={component}>
                {row.components[component]}
              </Table.Td>
            ))}
            <Table.Td ta="right">{row.expiring_soon}</Table.Td>
            <Table.Td ta="right">
              <InTesting inTesting={row.in_testing} onHold={row.on_hold} />
            </Table.Td>
            <Table.Td>
              <StatusCell row={row} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
      <Table.Tfoot>
        <Table.Tr>
          <Table.Th scope="row">Total</Table.Th>
          {COLUMNS.map((component) => (
            <Table.Td ta="right" fw={700} key={component}>
              {sumOf(inventory, (row) => row.components[component])}
            </Table.Td>
          ))}
          <Table.Td ta="right" fw={700}>
            {sumOf(inventory, (row) => row.expiring_soon)}
          </Table.Td>
          <Table.Td ta="right" fw={700}>
            <InTesting
              inTesting={sumOf(inventory, (row) => row.in_testing)}
              onHold={sumOf(inventory, (row) => row.on_hold)}
            />
          </Table.Td>
          <Table.Td />
        </Table.Tr>
      </Table.Tfoot>
    </Table>
  );
}

/** On a phone: the group, its stock per component in one cell, in testing, the status. */
function CompactInventory({ inventory, total }: { inventory: InventoryRow[]; total: number }) {
  return (
    <Table
      verticalSpacing={6}
      horizontalSpacing={6}
      striped="even"
      aria-label="Units per blood group"
      data-testid="inventory-table"
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Blood Group</Table.Th>
          <Table.Th scope="col">Stock per component</Table.Th>
          <Table.Th scope="col">Status</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {inventory.map((row) => (
          <Table.Tr key={row.bloodgroup} data-testid={`inventory-${row.bloodgroup}`}>
            <Table.Th scope="row">{row.bloodgroup}</Table.Th>
            <Table.Td>
              <Stack gap={0}>
                {COLUMNS.map((component) => (
                  <Text size="xs" key={component}>
                    {COMPONENT_LABELS[component]}{' '}
                    <Text span fw={700} size="xs" data-component={component}>
                      {row.components[component]}
                    </Text>
                  </Text>
                ))}
                {row.expiring_soon > 0 ? (
                  <Text size="xs" c={TEXT_TONE.orange}>
                    {row.expiring_soon} expiring in 7 days
                  </Text>
                ) : null}
                {row.in_testing > 0 ? (
                  <Text size="xs" c={TEXT_TONE.blue}>
                    {row.in_testing} in testing (not stock)
                  </Text>
                ) : null}
                {row.on_hold > 0 ? (
                  <Text size="xs" c={TEXT_TONE.blue}>
                    {row.on_hold} on lookback hold (not stock)
                  </Text>
                ) : null}
              </Stack>
            </Table.Td>
            <Table.Td>
              <StatusCell row={row} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
      <Table.Tfoot>
        <Table.Tr>
          <Table.Th scope="row">Total</Table.Th>
          <Table.Td fw={700}>{total}</Table.Td>
          <Table.Td />
        </Table.Tr>
      </Table.Tfoot>
    </Table>
  );
}
