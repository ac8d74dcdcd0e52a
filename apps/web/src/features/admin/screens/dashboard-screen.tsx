import { Grid, SimpleGrid, Stack } from '@mantine/core';
import { MESSAGES } from '@bloodbank/shared/constants';
import { ErrorAlert } from '@/components/ui/error-alert';
import { PageLoader } from '@/components/ui/page-loader';
import { useAuth } from '@/lib/auth/auth-context';
import { useDashboard } from '../api/get-dashboard';
import { AdminPage } from '../components/admin-page';
import { ExpiringUnits, LowStockAlerts } from '../components/dashboard-alerts';
import { StockChart, WeeklyChart } from '../components/dashboard-charts';
import { DashboardCountCards } from '../components/dashboard-count-cards';
import { DashboardInventory } from '../components/dashboard-inventory';
import { DashboardRecentDonations } from '../components/dashboard-recent-donations';

/** Spec section 2, Admin dashboard: every number comes from GET /api/admin/dashboard. */
export function AdminDashboardScreen() {
  const auth = useAuth();
  const dashboard = useDashboard();

  return (
    <AdminPage title="Administrator Dashboard" description={`Welcome, ${auth.user?.username ?? 'Admin'}`}>
      {dashboard.isPending ? (
        <PageLoader label="Loading dashboard" />
      ) : dashboard.isError ? (
        <ErrorAlert
          message={MESSAGES.dashboardLoadFailed}
          onRetry={() => void dashboard.refetch()}
          retrying={dashboard.isFetching}
        />
      ) : (
        <Stack gap="lg">
          <DashboardCountCards dashboard={dashboard.data} />
          <Grid gutter="lg">
            <Grid.Col span={{ base: 12, md: 5 }}>
              <Stack gap="lg" h="100%">
                <DashboardRecentDonations
                  bookingsDue={dashboard.data.bookingsDue}
                  awaitingResults={dashboard.data.awaitingResults}
                  pendingRequests={dashboard.data.pendingRequests}
                />
                <LowStockAlerts
                  inventory={dashboard.data.inventory}
                  threshold={dashboard.data.lowStockThreshold}
                />
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 7 }}>
              <DashboardInventory
                inventory={dashboard.data.inventory}
                total={dashboard.data.totalBloodUnits}
              />
            </Grid.Col>
          </Grid>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <StockChart inventory={dashboard.data.inventory} threshold={dashboard.data.lowStockThreshold} />
            <WeeklyChart weekly={dashboard.data.weekly} />
          </SimpleGrid>
          <ExpiringUnits
            units={dashboard.data.expiringUnits}
            expired={dashboard.data.inventory.reduce((sum, row) => sum + row.expired, 0)}
          />
        </Stack>
      )}
    </AdminPage>
  );
}
