import { useState } from 'react';
import { Stack, Text } from '@mantine/core';
import { IconFileText } from '@tabler/icons-react';
import { PAGE_SIZE, type AdminRequest, type InsufficientStock } from '@bloodbank/shared/admin';
import type { BloodGroup } from '@bloodbank/shared/blood-groups';
import { REQUEST_STATUSES, type RequestStatus } from '@bloodbank/shared/blood-request';
import { COMPONENT_LABELS, COMPONENT_WORDS } from '@bloodbank/shared/components';
import { errorMessage } from '@/lib/api-client';
import { insufficientStockOf, useApproveRequest } from '../api/approve-request';
import { useRequests } from '../api/get-requests';
import { useRejectRequest } from '../api/reject-request';
import { type Column } from '../components/data-table';
import { FilterAnnouncement, useFilterAnnouncement } from '../components/filter-announcement';
import { PagedTable } from '../components/paged-table';
import {
  DecisionActions,
  DecisionsPage,
  DecisionStatus,
  NoDecisions,
  PersonCell,
} from '../components/decision-cells';
import { ConfirmDialog } from '../components/confirm-dialog';
import { RejectDialog } from '../components/reject-dialog';
import { ShortStockDialog } from '../components/short-stock-dialog';
import { useBankToday } from '@/lib/bank-today';
import { formatDate, unitNumbersText, unitsText } from '@/lib/format';
import { pageHeading, useFocusAfterAction } from '@/lib/use-focus-after-action';
import { useSingleFlight } from '@/lib/use-single-flight';
import { useListParams } from '../hooks/use-list-params';
import { TEXT_TONE } from '../tones';
import { notify } from '../notify';
import { OnePersonOnly, personIdOf } from '../components/one-person-only';
import { useFocusNextRow } from '../focus-next-row';

/** The request's own Approve button in the list, while it is pending. */
const approveButtonOf = (id: number) =>
  document.querySelector<HTMLElement>(`[data-row-key="${id}"] [data-action="approve"]`);

/** Manage Requests: pending first; approve (FEFO, or from a compatible group when short); reject with a reason. */
export function RequestsScreen() {
  const { values, page, update } = useListParams(
    { status: '', patient: '' },
    { status: ['', ...REQUEST_STATUSES] },
  );
  const status = (values.status || undefined) as RequestStatus | undefined;
  // One patient's requests, from their details in Manage Patients (`?patient=7`).
  const patientId = personIdOf(values.patient);
  const query = useRequests({ status, page, pageSize: PAGE_SIZE.default, patient_id: patientId });
  const { markFiltered, announcement } = useFilterAnnouncement(query, (total) =>
    total > 0
      ? `${total} ${total === 1 ? 'request' : 'requests'} found.`
      : status
        ? `No ${status} requests.`
        : 'No requests.',
  );
  const filter = (changes: Partial<typeof values>) => {
    markFiltered();
    update(changes);
  };

  const approve = useApproveRequest();
  const reject = useRejectRequest();
  const [shortage, setShortage] = useState<{ request: AdminRequest; stock: InsufficientStock } | null>(null);
  const [shortageError, setShortageError] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState<AdminRequest | null>(null);
  // Approving issues bags at once and cannot be undone: it is confirmed first, as a mis-tap beside Reject on a tablet would issue blood.
  const [confirming, setConfirming] = useState<AdminRequest | null>(null);
  const [confirmError, setConfirmError] = useState<string | null>(null);
  // The row's buttons go with the decision: focus goes on from the page's heading.
  const afterApproval = useFocusAfterAction();
  // A shortage replaces the confirmation in the same render: the confirmation must not then give
  // focus back to the Approve button behind the Not enough stock dialog's overlay.
  const [handedOver, setHandedOver] = useState(false);
  // A rejected request's buttons go: focus goes on to the next pending request's Reject, else the
  // page's heading. Found as the dialog opens, while the row is still there.
  const afterRejection = useFocusNextRow();

  const singleFlight = useSingleFlight();
  const approveRequest = (request: AdminRequest, from?: BloodGroup) =>
    singleFlight((finish) => {
      setConfirmError(null);
      setShortageError(null);
      approve.mutate(
        { id: request.id, bloodgroup: from },
        {
          onSettled: finish,
          onSuccess: (approved) => {
            afterApproval.moveTo(pageHeading);
            setConfirming(null);
            setShortage(null);
            notify({
              title: 'Request approved',
              message: `${unitsText(approved.issued_unit_ids.length)} of ${approved.issued_bloodgroup ?? approved.bloodgroup}${approved.component === 'red_cells' ? '' : ` ${COMPONENT_WORDS[approved.component]}`} issued to ${approved.patient_name}: ${unitNumbersText(approved.issued_unit_ids)}.`,
            });
          },
          onError: (error) => {
            const stock = insufficientStockOf(error);
            if (stock) {
              setHandedOver(true);
              setConfirming(null);
              setShortage({ request, stock });
              return;
            }
            const message = errorMessage(error, 'The request could not be approved. Please try again.');
            if (from) setShortageError(message);
            else setConfirmError(message);
          },
        },
      );
    });

  const busyId = approve.isPending ? approve.variables.id : null;

  const today = useBankToday();
  const columns: Column<AdminRequest>[] = [
    {
      key: 'patient',
      header: 'Patient',
      title: true,
      cell: (request) => (
        <PersonCell name={request.patient_name} username={request.patient_username} id={request.id} />
      ),
    },
    {
      key: 'blood',
      header: 'Blood',
      nowrap: true,
      cell: (request) => (
        <Stack gap={0}>
          <Text size="sm">
            <strong>{request.bloodgroup}</strong> · {unitsText(request.unit)}
          </Text>
          <Text size="sm" data-testid={`component-${request.id}`}>
            {COMPONENT_LABELS[request.component]}
          </Text>
          {request.issued_bloodgroup && request.issued_bloodgroup !== request.bloodgroup ? (
            <Text size="xs" c="dimmed">
              issued from {request.issued_bloodgroup}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'date',
      header: 'Needed by',
      nowrap: true,
      cell: (request) => (
        <Stack gap={0}>
          <Text size="sm">{formatDate(request.date)}</Text>
          {/* A pending request whose day has passed is the most urgent of all, not one more row. */}
          {request.status === 'pending' && request.date < today ? (
            <Text size="xs" c={TEXT_TONE.orange} fw={600}>
              overdue
            </Text>
          ) : request.status === 'pending' && request.date === today ? (
            <Text size="xs" c="dimmed">
              today
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'hospital',
      header: 'Hospital',
      cell: (request) => (
        <Stack gap={0} maw={260}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {request.hospitaladdress}
          </Text>
          <Text size="xs" c="dimmed">
            {request.doctorname}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'reason',
      header: 'Reason',
      cell: (request) => (
        <Text size="sm" maw={260} style={{ overflowWrap: 'anywhere' }}>
          {request.reason}
        </Text>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      cell: (request) => (
        <DecisionStatus
          status={request.status}
          decidedAt={request.decided_at}
          reason={request.rejection_reason}
          // The bags staff fetch for this patient, by the numbers on their labels.
          note={request.issued_unit_ids.length > 0 ? unitNumbersText(request.issued_unit_ids) : null}
        />
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      label: false,
      cell: (request) =>
        request.status === 'pending' ? (
          <DecisionActions
            subject={`request #${request.id} from ${request.patient_name}`}
            approving={busyId === request.id && !approve.variables?.bloodgroup}
            busy={busyId !== null}
            deciding={busyId === request.id}
            onApprove={() => {
              setConfirmError(null);
              afterApproval.reset();
              setHandedOver(false);
              setConfirming(request);
            }}
            onReject={() => {
              afterRejection.open(document, request.id, 'reject', pageHeading);
              setRejecting(request);
            }}
          />
        ) : null,
    },
  ];

  return (
    <DecisionsPage
      title="Manage Requests"
      description="Patients' blood requests, pending first, the one needed soonest at the top. Approving issues the units that expire first."
      exportName="requests"
      statuses={REQUEST_STATUSES}
      status={values.status}
      onStatusChange={(next) => filter({ status: next })}
      dialogs={
        <>
          <ConfirmDialog
            opened={confirming !== null}
            title={confirming ? `Approve request #${confirming.id}` : ''}
            confirmLabel="Approve and issue"
            busyLabel="Issuing..."
            busy={approve.isPending && !approve.variables.bloodgroup}
            error={confirmError}
            color="blood"
            returnFocus={afterApproval.returnFocus && !handedOver}
            onConfirm={() => confirming && approveRequest(confirming)}
            onClose={() => {
              setConfirming(null);
              setConfirmError(null);
            }}
          >
            {confirming
              ? `${unitsText(confirming.unit)} of ${confirming.bloodgroup} ${COMPONENT_WORDS[confirming.component]} will be issued to ${confirming.patient_name} (needed by ${formatDate(confirming.date)}), the units that expire first. This cannot be undone.`
              : ''}
          </ConfirmDialog>

          <ShortStockDialog
            shortage={shortage}
            approvingFrom={approve.isPending ? (approve.variables.bloodgroup ?? null) : null}
            error={shortageError}
            // Opened from the closing confirmation, it has no control of its own to give focus back to.
            returnFocus={false}
            onApproveFrom={(group) => shortage && approveRequest(shortage.request, group)}
            onClose={() => {
              // Closed without approving: back to the request's Approve button, still in its row.
              const id = shortage?.request.id;
              setShortage(null);
              setShortageError(null);
              if (id !== undefined) requestAnimationFrame(() => approveButtonOf(id)?.focus());
            }}
          />

          <RejectDialog
            subject={
              rejecting
                ? {
                    title: `Reject request #${rejecting.id}`,
                    summary: `${rejecting.patient_name} asked for ${unitsText(rejecting.unit)} of ${rejecting.bloodgroup} ${COMPONENT_WORDS[rejecting.component]} by ${formatDate(rejecting.date)}.`,
                  }
                : null
            }
            audience="the patient"
            returnFocus={afterRejection.returnFocus}
            onReject={async (reason) => {
              if (!rejecting) return;
              const rejected = await reject.mutateAsync({ id: rejecting.id, reason });
              afterRejection.done();
              setRejecting(null);
              notify({
                title: 'Request rejected',
                message: `${rejected.patient_name} will see the decision.`,
              });
            }}
            onClose={() => setRejecting(null)}
          />
        </>
      }
    >
      {patientId ? (
        <OnePersonOnly
          what="requests"
          name={query.data?.items[0]?.patient_name ?? `patient #${patientId}`}
          clearLabel="Show every patient's"
          onClear={() => filter({ patient: '' })}
        />
      ) : null}
      <FilterAnnouncement text={announcement} />
      <PagedTable
        query={query}
        loadingLabel="Loading requests"
        errorText="The requests could not be loaded. Please try again."
        empty={
          <NoDecisions
            status={status}
            plural="requests"
            firstTitle="No blood requests yet"
            appearWhen="Requests appear here as soon as a patient submits one."
            icon={<IconFileText size={28} />}
          />
        }
        caption="Blood requests"
        columns={columns}
        rowKey={(request) => request.id}
        pagesLabel="Requests"
        page={page}
        onPageChange={(next) => update({ page: next })}
      />
    </DecisionsPage>
  );
}
