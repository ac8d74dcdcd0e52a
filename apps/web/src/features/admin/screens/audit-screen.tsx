import { Group, NativeSelect, Stack, Text } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { PAGE_SIZE, type AuditEntry } from '@bloodbank/shared/admin';
import { EmptyState } from '@/components/ui/empty-state';
import { useAudit } from '../api/get-audit';
import { AdminPage } from '../components/admin-page';
import { AuditChanges } from '../components/audit-changes';
import { DataTable, type Column } from '../components/data-table';
import { ListStates } from '../components/list-states';
import { TablePagination } from '../components/table-pagination';
import { capitalize, formatDateTime } from '../format';
import { useListParams } from '../hooks/use-list-params';

const ENTITIES = [
  { value: '', label: 'Everything' },
  { value: 'donation', label: 'Donations' },
  { value: 'request', label: 'Requests' },
  { value: 'blood_unit', label: 'Blood units' },
  { value: 'donor', label: 'Donors' },
  { value: 'patient', label: 'Patients' },
  { value: 'user', label: 'Accounts' },
];

/** "donation.approved" -> "Donation approved"; "units.received" -> "Units received". */
export function actionLabel(action: string): string {
  return capitalize(action.replaceAll('.', ' ').replaceAll('_', ' '));
}

const COLUMNS: Column<AuditEntry>[] = [
  { key: 'action', header: 'Action', title: true, cell: (entry) => actionLabel(entry.action) },
  { key: 'at', header: 'When', nowrap: true, cell: (entry) => formatDateTime(entry.at) },
  { key: 'actor', header: 'Who', cell: (entry) => entry.actor },
  {
    key: 'entity',
    header: 'Record',
    nowrap: true,
    cell: (entry) =>
      `${entry.entity.replaceAll('_', ' ')}${entry.entity_id !== null ? ` #${entry.entity_id}` : ''}`,
  },
  { key: 'changes', header: 'Before → after', cell: (entry) => <AuditChanges detail={entry.detail} /> },
];

/** Audit log: every admin change, newest first: who, when, what, before and after. */
export function AuditScreen() {
  const { values, page, update } = useListParams(
    { entity: '' },
    { entity: ENTITIES.map((option) => option.value) },
  );
  const query = useAudit({ entity: values.entity || undefined, page, pageSize: PAGE_SIZE.default });

  return (
    <AdminPage title="Audit Log" description="Every change made by an administrator, newest first.">
      <Stack gap="md">
        <Group gap="sm" align="flex-end">
          <NativeSelect
            label="Show"
            data={ENTITIES}
            value={values.entity}
            onChange={(event) => update({ entity: event.currentTarget.value })}
            w={200}
          />
        </Group>
        <ListStates
          query={query}
          loadingLabel="Loading the audit log"
          errorText="The audit log could not be loaded. Please try again."
          empty={
            <EmptyState
              title={values.entity ? 'No changes of this kind yet' : 'No changes recorded yet'}
              description={
                <Text span size="sm" c="dimmed">
                  Approvals, rejections, stock changes and edits to donors and patients appear here.
                </Text>
              }
              icon={<IconHistory size={28} />}
            />
          }
        >
          {(data) => (
            <>
              <DataTable
                caption="Audit log"
                columns={COLUMNS}
                rows={data.items}
                rowKey={(entry) => entry.id}
                busy={query.isPlaceholderData}
              />
              <TablePagination
                label="Audit log"
                page={page}
                pageSize={data.pageSize}
                total={data.total}
                onChange={(next) => update({ page: next })}
              />
            </>
          )}
        </ListStates>
      </Stack>
    </AdminPage>
  );
}
