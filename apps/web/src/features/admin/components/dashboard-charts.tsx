import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Table, Text, VisuallyHidden } from '@mantine/core';
import type { InventoryRow, WeeklyCount } from '@bloodbank/shared/admin';
import { formatCount, formatDate, formatShortDate } from '@/lib/format';
import { SectionCard } from './section-card';

/**
 * The charts are pictures to sighted users; screen readers get the same numbers as a sentence
 * (the stock) or a table (the weeks), and the chart itself is one labelled image.
 */
export function StockChart({ inventory, threshold }: { inventory: InventoryRow[]; threshold: number }) {
  const summary = `Units per blood group: ${inventory.map((row) => `${row.bloodgroup} ${row.units}`).join(', ')}. Low stock is under ${threshold} units.`;
  return (
    <SectionCard title="Stock by Blood Group">
      <div role="img" aria-label={summary}>
        <BarChart
          h={260}
          data={inventory.map((row) => ({ bloodgroup: row.bloodgroup, units: row.units }))}
          dataKey="bloodgroup"
          series={[{ name: 'units', label: 'Units', color: 'blood.7' }]}
          getBarColor={(value) => (value < threshold ? 'orange.7' : 'blood.7')}
          referenceLines={[{ y: threshold, color: 'orange.8' }]}
          tickLine="y"
          gridAxis="y"
          textColor="gray.8"
          maxBarWidth={40}
          yAxisProps={{ allowDecimals: false, width: 32 }}
          withTooltip={false}
        />
      </div>
      <Text size="xs" c="dimmed" mt="xs">
        Orange bars are under the low-stock line of {threshold} units.
      </Text>
    </SectionCard>
  );
}

export function WeeklyChart({ weekly }: { weekly: WeeklyCount[] }) {
  const donations = weekly.reduce((sum, week) => sum + week.donations, 0);
  const requests = weekly.reduce((sum, week) => sum + week.requests, 0);
  const from = weekly[0]?.week_start;
  return (
    <SectionCard title="Donations and Requests, Last 12 Weeks">
      <div
        role="img"
        aria-label={`Weekly donations and requests: ${donations} donations and ${requests} requests in 12 weeks.`}
      >
        <BarChart
          h={260}
          data={weekly.map((week) => ({
            week: formatShortDate(week.week_start),
            donations: week.donations,
            requests: week.requests,
          }))}
          dataKey="week"
          series={[
            { name: 'donations', label: 'Donations', color: 'blood.7' },
            { name: 'requests', label: 'Requests', color: 'indigo.7' },
          ]}
          withLegend
          legendProps={{ verticalAlign: 'top', height: 36 }}
          tickLine="y"
          gridAxis="y"
          textColor="gray.8"
          maxBarWidth={18}
          yAxisProps={{ allowDecimals: false, width: 32 }}
          xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 8 }}
          withTooltip={false}
        />
      </div>
      <Text size="xs" c="dimmed" mt="xs">
        {formatCount(donations)} donations and {formatCount(requests)} requests since the week of{' '}
        {formatDate(from)}; weeks start on Monday.
      </Text>
      <VisuallyHidden>
        <Table>
          <caption>Donations and requests per week</caption>
          <thead>
            <tr>
              <th scope="col">Week of</th>
              <th scope="col">Donations</th>
              <th scope="col">Requests</th>
            </tr>
          </thead>
          <tbody>
            {weekly.map((week) => (
              <tr key={week.week_start}>
                <th scope="row">{formatDate(week.week_start)}</th>
                <td>{week.donations}</td>
                <td>{week.requests}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </VisuallyHidden>
    </SectionCard>
  );
}
