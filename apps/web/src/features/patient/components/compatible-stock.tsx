import { Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { CAN_RECEIVE_FROM, isBloodGroup } from '@bloodbank/shared/blood-groups';
import { ErrorAlert } from '@/components/ui/error-alert';
import { useStock } from '../api/get-stock';
import { unitsText } from '@/lib/format';
import { StockStatusBadge } from './status-badges';

/**
 * Beside the Request Blood form: the groups a patient of the chosen group can receive from, with the
 * units each has on the shelf now. Follows the group field as it changes.
 */
export function CompatibleStock({ bloodgroup }: { bloodgroup: string | undefined }) {
  const stock = useStock();
  const group = isBloodGroup(bloodgroup) ? bloodgroup : null;
  const donors = group ? CAN_RECEIVE_FROM[group] : [];
  const unitsOf = new Map(stock.data?.map((entry) => [entry.bloodgroup, entry.units]));
  const total = donors.reduce((sum, donor) => sum + (unitsOf.get(donor) ?? 0), 0);

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
              A patient with {group} blood can receive from{' '}
              {donors.length === 1 ? 'this group' : 'these groups'}. Units in stock now:
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
            <Text size="sm" fw={600} aria-live="polite" data-testid="compatible-total">
              {total > 0
                ? `${unitsText(total)} of compatible blood in stock now.`
                : 'No compatible blood is in stock right now. You can still send your request; it stays pending until the blood bank can fill it.'}
            </Text>
          </>
        )}
      </Stack>
    </Paper>
  );
}
