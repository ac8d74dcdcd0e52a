import { Button, Container, Grid, Stack } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconFirstAidKit } from '@tabler/icons-react';
import { Link } from 'react-router';
import { MESSAGES } from '@bloodbank/shared/constants';
import { paths } from '@/app/paths';
import { ErrorAlert } from '@/components/ui/error-alert';
import { PageHeader } from '@/components/ui/page-header';
import { PageLoader } from '@/components/ui/page-loader';
import { useAuth } from '@/lib/auth/auth-context';
import { useMyRequests } from '../api/get-my-requests';
import { usePatientSummary } from '../api/get-patient-summary';
import { useStock } from '../api/get-stock';
import { MyRequests } from './my-requests';
import { RequestCounters } from './request-counters';
import { StockTable } from './stock-table';

/**
 * /patient/patient-dashboard (spec section 2): welcome, the four counters, My Requests and the
 * Available Blood Stock table. A spinner until all three answers are in, then the data or the spec's error.
 */
export function PatientDashboard() {
  useDocumentTitle('Patient Dashboard · Blood Bank');
  const auth = useAuth();
  const firstName = auth.user?.first_name?.trim() || 'Patient';
  const summary = usePatientSummary();
  const stock = useStock();
  const requests = useMyRequests();
  const queries = [summary, stock, requests];
  // A failed background refresh keeps what is on screen; only a first load that failed is an error.
  const failed = queries.filter((query) => query.isError && query.data === undefined);

  return (
    <Container size="lg" py="xl">
      <PageHeader
        title={`Welcome, ${firstName}`}
        description="We are here to help you get the blood you need. Request blood and follow your requests here."
        actions={
          <Button
            component={Link}
            to={paths.patient.makeRequest}
            leftSection={<IconFirstAidKit size={18} aria-hidden />}
          >
            Request Blood
          </Button>
        }
      />
      {failed.length > 0 ? (
        <ErrorAlert
          message={MESSAGES.dashboardLoadFailed}
          onRetry={() => failed.forEach((query) => void query.refetch())}
          retrying={failed.some((query) => query.isFetching)}
        />
      ) : summary.data && stock.data && requests.data ? (
        <Stack gap="xl">
          <RequestCounters summary={summary.data} />
          {/* The stock table needs little width; the requests table takes the rest. On a phone the
              patient's own requests come first, as they do in the page's order (keyboard, screen reader). */}
          <Grid gutter="lg" columns={24}>
            <Grid.Col span={{ base: 24, md: 15, lg: 16 }}>
              <MyRequests requests={requests.data} />
            </Grid.Col>
            <Grid.Col span={{ base: 24, md: 9, lg: 8 }}>
              <StockTable stock={stock.data} />
            </Grid.Col>
          </Grid>
        </Stack>
      ) : (
        <PageLoader label="Loading your dashboard" />
      )}
    </Container>
  );
}
