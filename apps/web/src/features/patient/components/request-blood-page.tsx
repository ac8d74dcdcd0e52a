import { useState } from 'react';
import { Button, Container, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconCircleCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { BloodRequest } from '@bloodbank/shared/blood-request';
import { COMPONENT_WORDS } from '@bloodbank/shared/components';
import { paths } from '@/app/paths';
import { PageHeader } from '@/components/ui/page-header';
import { formatDate, unitsText } from '@/lib/format';
import { useFocusOnShow } from '@/lib/use-focus-on-show';
import { RequestForm } from './request-form';

/** /patient/make-request: the form, then the success state with a way back or to another request. */
export function RequestBloodPage() {
  useDocumentTitle('Request Blood · Blood Bank');
  const [submitted, setSubmitted] = useState<BloodRequest | null>(null);

  return (
    <Container size="lg" py="xl">
      <PageHeader
        title="Request Blood"
        description="Tell us what you need and we will process your request."
      />
      {submitted ? (
        <RequestSubmitted request={submitted} onAnother={() => setSubmitted(null)} />
      ) : (
        <RequestForm onSubmitted={setSubmitted} />
      )}
    </Container>
  );
}

function RequestSubmitted({ request, onAnother }: { request: BloodRequest; onAnother: () => void }) {
  // The form the user was on is gone: move them (and their screen reader) to what replaced it.
  const heading = useFocusOnShow<HTMLHeadingElement>();

  return (
    <Paper withBorder radius="lg" p={{ base: 'lg', sm: 'xl' }} maw={640} mx="auto">
      <Stack align="center" ta="center" gap="md">
        <ThemeIcon size={64} radius="xl" color="green.8" aria-hidden>
          <IconCircleCheck size={36} />
        </ThemeIcon>
        <Title order={2} ref={heading} tabIndex={-1} style={{ outline: 'none' }}>
          Request Submitted
        </Title>
        <Text>
          Your request for {unitsText(request.unit)} of {request.bloodgroup}{' '}
          {COMPONENT_WORDS[request.component]}, needed by {formatDate(request.date)}, has been submitted. It
          is pending until the blood bank reviews it; you can follow it on your dashboard.
        </Text>
        <Group justify="center" gap="sm">
          <Button component={Link} to={paths.patient.dashboard}>
            Back to Dashboard
          </Button>
          <Button variant="default" onClick={onAnother}>
            Make Another Request
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
