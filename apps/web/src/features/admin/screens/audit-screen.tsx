import { Group, List, NativeSelect, Stack, Text } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { PAGE_SIZE, type AuditEntry } from '@bloodbank/shared/admin';
import { EmptyState } from '@/components/ui/empty-state';
import { useAudit } from '../api/get-audit';
import { AdminPage } from '../components/admin-page';
import { auditStory } from '../audit-sentence';
import { type Column } from '../components/data-table';
import { PagedTable } from '../components/paged-table';
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

/** Each entry as a sentence with names and the local time, then its details in words. */
const COLUMNS: Column<AuditEntry>[] = [
  { key: 'sentence', header: 'What happened', title: true, cell: (entry) => auditStory(entry).sentence },
  {
    key: 'details',
    header: 'Details',
    cell: (entry) => <AuditDetails details={auditStory(entry).details} />,
  },
];

function AuditDetails({ details }: { details: string[] }) {
  return details.length === 0 ? (
    <Text span size="sm" c="dimmed">
      —
    </Text>
  ) : (
    <List size="sm" spacing={2} listStyleType="none" style={{ overflowWrap: 'anywhere' }}>
      {details.map((line) => (
        <List.Item key={line}>{line}</List.Item>
      ))}
    </List>
  );
}

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
        <PagedTable
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
          caption="Audit log"
          columns={COLUMNS}
          rowKey={(entry) => entry.id}
          pagesLabel="Audit log"
          page={page}
          onPageChange={(next) => update({ page: next })}
        />
      </Stack>
    </AdminPage>
  );
}
