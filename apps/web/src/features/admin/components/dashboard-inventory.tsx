import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { InventoryRow } from '@bloodbank/shared/admin';
import { paths } from '@/app/paths';
import { SectionCard } from './section-card';
import { StatusBadge } from './status-badge';

/** Spec section 2: the Blood Inventory card, units per blood group (usable stock only). */
export function DashboardInventory({ inventory, total }: { inventory: InventoryRow[]; total: number }) {
  return (
    <SectionCard
      title="Blood Inventory"
      actions={
        <Anchor component={Link} to={paths.admin.blood} size="sm" fw={600}>
          Manage Blood
        </Anchor>
      }
    >
      {/* Tighter than Mantine's 10 px, so on a phone four columns and the widest badge fit the card. */}
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
            <Table.Th scope="col" ta="right">
              Units
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Expiring in 7 days
            </Table.Th>
            <Table.Th scope="col">Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {inventory.map((row) => (
            <Table.Tr key={row.bloodgroup}>
              <Table.Th scope="row">{row.bloodgroup}</Table.Th>
              <Table.Td ta="right">{row.units}</Table.Td>
              <Table.Td ta="right">{row.expiring_soon}</Table.Td>
              <Table.Td>
                {row.units === 0 ? (
                  <StatusBadge status="low" label="Out of stock" />
                ) : row.low ? (
                  <StatusBadge status="low" label="Low" />
                ) : (
                  <StatusBadge status="ok" label="OK" />
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th scope="row">Total</Table.Th>
            <Table.Td ta="right" fw={700}>
              {total}
            </Table.Td>
            <Table.Td colSpan={2}>
              <Text size="xs" c="dimmed">
                usable units
              </Text>
            </Table.Td>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </SectionCard>
  );
}
