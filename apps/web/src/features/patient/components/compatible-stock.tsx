import { Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { isBloodGroup, type BloodGroup } from '@bloodbank/shared/blood-groups';
import type { StockEntry } from '@bloodbank/shared/blood-request';
import { compatibleDonorGroups, COMPONENT_WORDS, type Component } from '@bloodbank/shared/components';
import { ErrorAlert } from '@/components/ui/error-alert';
import { useStock } from '../api/get-stock';
import { unitsText } from '@/lib/format';
import { StockStatusBadge } from './status-badges';

/**
 * The units of a group that can fill a request for `component`: a red-cell request also takes whole
 * blood (`units`, PRODUCT.md 3.3); any other component only its own units.
 */
export function unitsForComponent(entry: StockEntry, component: Component): number {
  return component === 'red_cells' ? entry.units : entry.components[component];
}

/** The units on the shelf now that a patient of `group` can receive as `component`, per compatible group. */
export function compatibleUnitsByGroup(
  stock: readonly StockEntry[],
  group: BloodGroup,
  component: Component,
): { bloodgroup: BloodGroup; units: number }[] {
  const unitsOf = new Map(stock.map((entry) => [entry.bloodgroup, unitsForComponent(entry, component)]));
  return compatibleDonorGroups(component, group).map((donor) => ({
    bloodgroup: donor,
    units: unitsOf.get(donor) ?? 0,
  }));
}

/** How the component's compatibility runs, in a sentence after the list (red cells: the spec's table). */
const RULE_NOTES: Partial<Record<Component, string>> = {
  plasma: 'Plasma works the other way round from red cells: AB plasma can go to anyone, O plasma only to O.',
  platelets: 'Platelets can come from any group; the same ABO group is preferred and listed first.',
};

/**
 * Beside the Request Blood form: the groups a patient of the chosen group can receive the chosen
 * component from (its own rule), with the units each has on the shelf now. Follows both fields.
 */
export function CompatibleStock({
  bloodgroup,
  component,
}: {
  bloodgroup: string | undefined;
  component: Component;
}) {
  const stock = useStock();
  const group = isBloodGroup(bloodgroup) ? bloodgroup : null;
  const donors = group ? compatibleDonorGroups(component, group) : [];
  const unitsOf = new Map(
    stock.data?.map((entry) => [entry.bloodgroup, unitsForComponent(entry, component)]),
  );
  const words = COMPONENT_WORDS[component];
  const byGroup = group && stock.data ? compatibleUnitsByGroup(stock.data, group, component) : [];
  const total = byGroup.reduce((sum, entry) => sum + entry.units, 0);
  // A request is filled from one group (PRODUCT.md 3.3), so the total alone over-promises.
  const largest = byGroup.reduce((most, entry) => Math.max(most, entry.units), 0);
  const oneGroupNote =
    largest < total ? ` A request is filled from one group: at most ${unitsText(largest)} now.` : '';

  return (
    <Paper
      component="section"
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      aria-labelledby="compatible-stock-title"
    >
      <Stack gap="sm">
        <Title order={2} size="h3" id="compatible-stock-title">
          {group ? `Who Can Give to ${group}` : 'Compatible Blood Stock'}
        </Title>
        {!group ? (
          <Text size="sm" c="dimmed">
            Choose a blood group to see which groups can supply it and how many units are in stock now.
          </Text>
        ) : stock.isPending ? (
          <Group gap="xs" role="status">
            <Loader size="sm" />
            <Text size="sm" c="dimmed">
              Loading the current stock…
            </Text>
          </Group>
        ) : stock.isError ? (
          <ErrorAlert
            title="Stock unavailable"
            message="We could not load the current stock."
            onRetry={() => void stock.refetch()}
            retrying={stock.isFetching}
          />
        ) : (
          <>
            <Text size="sm" c="dimmed">
              A patient with {group} blood can receive {words} from{' '}
              {donors.length === 1 ? 'this group' : 'these groups'}. Units in stock now
              {component === 'red_cells' ? ' (red cells and whole blood)' : ''}:
            </Text>
            <Stack
              component="ul"
              gap={0}
              m={0}
              p={0}
              style={{ listStyle: 'none' }}
              aria-label={`Groups that can give to ${group}`}
            >
              {donors.map((donor) => {
                const units = unitsOf.get(donor) ?? 0;
                return (
                  <Group
                    component="li"
                    key={donor}
                    justify="space-between"
                    wrap="nowrap"
                    gap="sm"
                    py={8}
                    style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
                    data-testid={`compatible-${donor}`}
                  >
                    <Text fw={700} w={44}>
                      {donor}
                    </Text>
                    <Text size="sm" style={{ flex: 1 }}>
                      {unitsText(units)}
                    </Text>
                    <StockStatusBadge units={units} />
                  </Group>
                );
              })}
            </Stack>
            {RULE_NOTES[component] ? (
              <Text size="xs" c="dimmed">
                {RULE_NOTES[component]}
              </Text>
            ) : null}
            <Text size="sm" fw={600} aria-live="polite" data-testid="compatible-total">
              {total > 0
                ? component === 'red_cells'
                  ? `${unitsText(total)} of compatible blood in stock now.${oneGroupNote}`
                  : `${unitsText(total)} of compatible ${words} in stock now.${oneGroupNote}`
                : `No compatible ${component === 'red_cells' ? 'blood' : words} is in stock right now. You can still send your request; it stays pending until the blood bank can fill it.`}
            </Text>
          </>
        )}
      </Stack>
    </Paper>
  );
}
