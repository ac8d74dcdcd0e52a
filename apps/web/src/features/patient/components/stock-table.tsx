import { Paper, Table, Text, Title } from '@mantine/core';
import type { StockEntry } from '@bloodbank/shared/blood-request';
import { StockStatusBadge } from './status-badges';

const NUMBER = { fontVariantNumeric: 'tabular-nums' } as const;

/**
 * Spec section 2: the Available Blood Stock table (blood group, units, status). `units` counts red
 * cells and whole blood, and the spec's status follows it (PRODUCT.md 3.3); plasma and platelets
 * follow as columns of their own, so the status never speaks for them.
 */
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
      <Text size="sm" c="dimmed" mb="sm" id="stock-description">
        Units on the shelf now that have not expired. Units are red cells and whole blood; the status is
        theirs. Plasma and platelets are counted apart.
      </Text>
      {/*
        Five narrow columns fit a 375 px phone and the dashboard's side column; anything narrower
        scrolls inside the card, never the page (and the scroller can be reached by keyboard).
      */}
      <Table.ScrollContainer
        minWidth={260}
        type="native"
        tabIndex={0}
        role="region"
        aria-label="Available Blood Stock, scrollable"
      >
        <Table
          striped
          verticalSpacing="xs"
          horizontalSpacing={4}
          fz="sm"
          aria-labelledby="stock-title"
          aria-describedby="stock-description"
          data-testid="stock-table"
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col" fz="xs">
                Blood Group
              </Table.Th>
              <Table.Th scope="col" fz="xs" ta="right">
                Units
              </Table.Th>
              <Table.Th scope="col" fz="xs">
                Status
              </Table.Th>
              <Table.Th scope="col" fz="xs" ta="right">
                Plasma
              </Table.Th>
              <Table.Th scope="col" fz="xs" ta="right">
                Platelets
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {stock.map((entry) => (
              <Table.Tr key={entry.bloodgroup}>
                <Table.Th scope="row" fw={700}>
                  {entry.bloodgroup}
                </Table.Th>
                <Table.Td ta="right" style={NUMBER}>
                  {entry.units}
                </Table.Td>
                <Table.Td>
                  <StockStatusBadge units={entry.units} size="xs" />
                </Table.Td>
                <Table.Td ta="right" style={NUMBER}>
                  {entry.components.plasma}
                </Table.Td>
                <Table.Td ta="right" style={NUMBER}>
                  {entry.components.platelets}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
