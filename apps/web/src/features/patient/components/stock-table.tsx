import { Paper, Table, Text, Title } from '@mantine/core';
import type { StockEntry } from '@bloodbank/shared/blood-request';
import { StockStatusBadge } from './status-badges';

/** Spec section 2: the Available Blood Stock table (blood group, units, status). */
export function StockTable({ stock }: { stock: StockEntry[] }) {
  return (
    <Paper
      component="section"
      data-testid="stock-card"
      withBorder
      radius="lg"
      p={{ base: 'sm', sm: 'lg' }}
      aria-labelledby="stock-title"
    >
      <Title order={2} size="h3" id="stock-title" mb={4}>
        Available Blood Stock
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Units on the shelf now that have not expired.
      </Text>
      <Table
        striped
        verticalSpacing="xs"
        aria-labelledby="stock-title"
        data-testid="stock-table"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col" style={{ whiteSpace: 'nowrap' }}>
              Blood Group
            </Table.Th>
            <Table.Th scope="col" ta="right">
              Units
            </Table.Th>
            <Table.Th scope="col">Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {stock.map((entry) => (
            <Table.Tr key={entry.bloodgroup}>
              <Table.Th scope="row" fw={700}>
                {entry.bloodgroup}
              </Table.Th>
              <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                {entry.units}
              </Table.Td>
              <Table.Td>
                <StockStatusBadge units={entry.units} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
