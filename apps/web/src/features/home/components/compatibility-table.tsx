import { Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import {
  BLOOD_GROUPS,
  CAN_DONATE_TO,
  CAN_RECEIVE_FROM,
  type BloodGroup,
} from '@bloodbank/shared/blood-groups';
import classes from './home.module.css';

function GroupList({ groups }: { groups: readonly BloodGroup[] }) {
  return (
    <Group gap={4}>
      {groups.map((group) => (
        <Badge key={group} variant="outline" radius="sm" size="sm" tt="none" className={classes.groupBadge}>
          {group}
        </Badge>
      ))}
    </Group>
  );
}

/** Red-cell compatibility, straight from the shared table the server also approves requests by. */
export function CompatibilityTable() {
  return (
    <Stack gap="md" component="section" aria-labelledby="compatibility-title">
      <div>
        <Title order={2} id="compatibility-title">
          Blood Type Compatibility
        </Title>
        <Text c="dimmed">Who can give blood to whom, and who can receive it.</Text>
      </div>
      <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
        <Table
          striped
          verticalSpacing="sm"
          horizontalSpacing="md"
          className={classes.compatibility}
          aria-labelledby="compatibility-title"
          data-testid="compatibility-table"
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Blood Type</Table.Th>
              <Table.Th scope="col">Can Donate To</Table.Th>
              <Table.Th scope="col">Can Receive From</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {BLOOD_GROUPS.map((group) => (
              <Table.Tr key={group}>
                <Table.Th scope="row" className={classes.groupCell}>
                  {group}
                </Table.Th>
                <Table.Td>
                  <GroupList groups={CAN_DONATE_TO[group]} />
                </Table.Td>
                <Table.Td>
                  <GroupList groups={CAN_RECEIVE_FROM[group]} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
    </Stack>
  );
}
