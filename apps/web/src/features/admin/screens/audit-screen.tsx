import { Group, List, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { isValidIsoDate } from '@bloodbank/shared/dates';
import { IconHistory } from '@tabler/icons-react';
import { PAGE_SIZE, type AuditEntry } from '@bloodbank/shared/admin';
import { EmptyState } from '@/components/ui/empty-state';
import { useAudit } from '../api/get-audit';
import { AdminPage } from '../components/admin-page';
import { auditStory } from '../audit-sentence';
import { type Column } from '../components/data-table';
import { FilterAnnouncement, useFilterAnnouncement } from '../components/filter-announcement';
import { PagedTable } from '../components/paged-table';
import { SearchInput } from '../components/search-input';
import { useListParams } from '../hooks/use-list-params';

const ENTITIES = [
  { value: '', label: 'Everything' },
  { value: 'donation', label: 'Donations' },
  { value: 'request', label: 'Requests' },
  { value: 'blood_unit', label: 'Blood units' },
  { value: 'donor', label: 'Donors' },
  { value: 'patient', label: 'Patients' },
  { value: 'user', label: 'Accounts' },
  { value: 'deferral', label: 'Deferrals' },
  { value: 'site', label: 'Sites' },
  { value: 'callout', label: 'Call-outs' },
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
    { entity: '', actor: '', from: '', to: '' },
    { entity: ENTITIES.map((option) => option.value) },
  );
  // A day is asked for once it is a whole date. A range the wrong way round is said on its field and
  // asked as it is: it holds no change, so the list is empty, never the whole log under the error.
  const from = isValidIsoDate(values.from) ? values.from : undefined;
  const to = isValidIsoDate(values.to) ? values.to : undefined;
  const reversed = from !== undefined && to !== undefined && from > to;
  const query = useAudit({
    entity: values.entity || undefined,
    actor: values.actor || undefined,
    from,
    to,
    page,
    pageSize: PAGE_SIZE.default,
  });
  const filtered = Boolean(values.entity || values.actor || from || to);
  const { markFiltered, announcement } = useFilterAnnouncement(query, (total) =>
    total > 0 ? `${total} ${total === 1 ? 'change' : 'changes'} found.` : 'No changes match.',
  );
  /** A filter of the log: said to a screen reader once its list has come. */
  const filter = (changes: Partial<typeof values>) => {
    markFiltered();
    update(changes);
  };

  return (
    <AdminPage title="Audit Log" description="Every change made by an administrator, newest first.">
      <Stack gap="md">
        <Group gap="sm" align="flex-end">
          <NativeSelect
            label="Show"
            data={ENTITIES}
            value={values.entity}
            onChange={(event) => filter({ entity: event.currentTarget.value })}
            w={200}
          />
          <SearchInput
            label="Who"
            placeholder="A staff member's username, or system"
            value={values.actor}
            onChange={(actor) => filter({ actor })}
          />
          <TextInput
            label="From"
            type="date"
            value={values.from}
            max={values.to || undefined}
            onChange={(event) => filter({ from: event.currentTarget.value })}
            w={{ base: '100%', xs: 170 }}
          />
          <TextInput
            label="To"
            type="date"
            value={values.to}
            min={values.from || undefined}
            error={reversed ? 'Must be on or after From' : null}
            onChange={(event) => filter({ to: event.currentTarget.value })}
            w={{ base: '100%', xs: 170 }}
          />
        </Group>
        <PagedTable
          query={query}
          loadingLabel="Loading the audit log"
          errorText="The audit log could not be loaded. Please try again."
          empty={
            <EmptyState
              title={filtered ? 'No changes match' : 'No changes recorded yet'}
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
        <FilterAnnouncement text={announcement} />
      </Stack>
    </AdminPage>
  );
}
