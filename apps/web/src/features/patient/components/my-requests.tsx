import { useState } from 'react';
import { Button, Card, Group, Paper, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconFirstAidKit } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { BloodRequest } from '@bloodbank/shared/blood-request';
import { COMPONENT_LABELS, COMPONENT_WORDS } from '@bloodbank/shared/components';
import { paths } from '@/app/paths';
import { EmptyState } from '@/components/ui/empty-state';
import { useShownInSteps } from '@/lib/use-shown-in-steps';
import { CancelRequestModal } from './cancel-request-modal';
import { formatDate, unitsText } from '@/lib/format';
import { RequestStatusBadge } from './status-badges';

/** Requests listed at first, and added on each "Show more requests". */
const REQUESTS_SHOWN = 20;

/**
 * PRODUCT.md section 2: the patient's requests, newest first; a pending one can be cancelled. A
 * patient of many years sees the latest 20, and more on asking.
 */
export function MyRequests({ requests }: { requests: BloodRequest[] }) {
  const [toCancel, setToCancel] = useState<BloodRequest | null>(null);
  const steps = useShownInSteps(
    requests,
    REQUESTS_SHOWN,
    (request) => `[data-testid="request-${request.id}"]`,
  );
  // A table where there is room for one; a card per request on a phone.
  const wide = useMediaQuery('(min-width: 48em)', false, { getInitialValueInEffect: false });

  return (
    <Paper
      component="section"
      withBorder
      radius="lg"
      p={{ base: 'sm', sm: 'lg' }}
      aria-labelledby="my-requests-title"
    >
      <Group justify="space-between" align="center" mb="sm" gap="sm">
        <Title order={2} size="h3" id="my-requests-title">
          My Requests
        </Title>
        {requests.length > 0 ? (
          <Button component={Link} to={paths.patient.makeRequest} variant="light" size="xs">
            New Request
          </Button>
        ) : null}
      </Group>
      {requests.length === 0 ? (
        <EmptyState
          title="You have not requested blood yet"
          description="When you need blood, send a request and follow its status here."
          icon={<IconFirstAidKit size={28} />}
          action={
            <Button component={Link} to={paths.patient.makeRequest} mt="sm">
              Request Blood
            </Button>
          }
        />
      ) : wide ? (
        <RequestTable requests={steps.listed} onCancel={setToCancel} />
      ) : (
        <RequestCards requests={steps.listed} onCancel={setToCancel} />
      )}
      {steps.next > 0 ? (
        <Group justify="center" mt="md">
          <Button variant="default" onClick={steps.showMore}>
            Show {steps.next} more requests
          </Button>
        </Group>
      ) : null}
      <CancelRequestModal request={toCancel} onClose={() => setToCancel(null)} />
    </Paper>
  );
}

interface RequestListProps {
  requests: BloodRequest[];
  onCancel: (request: BloodRequest) => void;
}

function cancelLabel(request: BloodRequest): string {
  return `Cancel request for ${unitsText(request.unit)} of ${request.bloodgroup} ${COMPONENT_WORDS[request.component]} needed by ${formatDate(request.date)}`;
}

/** The rejection reason, and the group actually issued when the admin filled it from another group. */
function RequestDetails({ request }: { request: BloodRequest }) {
  const issuedFromOther =
    request.issued_bloodgroup !== null && request.issued_bloodgroup !== request.bloodgroup;
  return (
    <>
      {request.status === 'rejected' && request.rejection_reason ? (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          <Text span fw={600} size="sm">
            Reason:
          </Text>{' '}
          {request.rejection_reason}
        </Text>
      ) : null}
      {issuedFromOther ? (
        <Text size="sm">
          <Text span fw={600} size="sm">
            Issued:
          </Text>{' '}
          {request.issued_bloodgroup} (compatible with {request.bloodgroup})
        </Text>
      ) : null}
    </>
  );
}

function RequestTable({ requests, onCancel }: RequestListProps) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="sm" aria-labelledby="my-requests-title">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col" style={{ whiteSpace: 'nowrap' }}>
              Date Needed
            </Table.Th>
            <Table.Th scope="col" style={{ whiteSpace: 'nowrap' }}>
              Blood Group
            </Table.Th>
            <Table.Th scope="col">Component</Table.Th>
            <Table.Th scope="col">Units</Table.Th>
            <Table.Th scope="col">Hospital</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {requests.map((request) => (
            <Table.Tr key={request.id} data-testid={`request-${request.id}`} tabIndex={-1}>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(request.date)}</Table.Td>
              <Table.Td fw={700} style={{ whiteSpace: 'nowrap' }}>
                {request.bloodgroup}
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{COMPONENT_LABELS[request.component]}</Table.Td>
              <Table.Td>{request.unit}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{request.hospitaladdress}</Table.Td>
              <Table.Td>
                <Stack gap={4} align="flex-start">
                  <RequestStatusBadge status={request.status} />
                  <RequestDetails request={request} />
                </Stack>
              </Table.Td>
              <Table.Td ta="right" style={{ width: '1%', whiteSpace: 'nowrap' }}>
                {request.status === 'pending' ? (
                  <Button
                    size="xs"
                    variant="default"
                    aria-label={cancelLabel(request)}
                    onClick={() => onCancel(request)}
                  >
                    Cancel
                  </Button>
                ) : null}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function RequestCards({ requests, onCancel }: RequestListProps) {
  return (
    <Stack
      component="ul"
      gap="sm"
      m={0}
      p={0}
      style={{ listStyle: 'none' }}
      aria-labelledby="my-requests-title"
    >
      {requests.map((request) => (
        <Card
          component="li"
          key={request.id}
          withBorder
          radius="md"
          p="sm"
          data-testid={`request-${request.id}`}
          tabIndex={-1}
        >
          <Stack gap={6}>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text fw={700}>
                {unitsText(request.unit)} of {request.bloodgroup}
              </Text>
              <RequestStatusBadge status={request.status} />
            </Group>
            <Text size="sm">
              <Text span fw={600} size="sm">
                Component:
              </Text>{' '}
              {COMPONENT_LABELS[request.component]}
            </Text>
            <Text size="sm">
              <Text span fw={600} size="sm">
                Needed by:
              </Text>{' '}
              {formatDate(request.date)}
            </Text>
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              <Text span fw={600} size="sm">
                Hospital:
              </Text>{' '}
              {request.hospitaladdress}
            </Text>
            <RequestDetails request={request} />
            {request.status === 'pending' ? (
              <Button
                size="xs"
                variant="default"
                aria-label={cancelLabel(request)}
                onClick={() => onCancel(request)}
                style={{ alignSelf: 'flex-start' }}
              >
                Cancel
              </Button>
            ) : null}
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
