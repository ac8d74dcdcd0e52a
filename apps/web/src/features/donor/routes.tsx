import { Anchor, Container, Group } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useLocation, useNavigate } from 'react-router';
import { paths } from '@/app/paths';
import { PageHeader } from '@/components/ui/page-header';
import { useAuth } from '@/lib/auth/auth-context';
import { DonationForm } from './components/donation-form';
import { DonorDashboardTabs } from './components/donor-dashboard-tabs';
import { GameDashboard } from './components/game-dashboard';
import { newAchievementsFrom } from './components/game-location-state';

/** The donor area (role DONOR), one chunk loaded by app/router.tsx. */

export function DonorDashboardRoute() {
  useDocumentTitle('Donor Dashboard · Blood Bank');
  const auth = useAuth();
  const firstName = auth.user?.first_name?.trim() || 'Donor';
  return (
    <Container size="lg" py="xl">
      <PageHeader
        title={`Welcome, ${firstName}`}
        description="Thank you for being a blood donor. Every donation you make can save up to 3 lives."
      />
      <DonorDashboardTabs />
    </Container>
  );
}

export function DonateBloodRoute() {
  useDocumentTitle('Donate Blood · Blood Bank');
  return (
    <Container size="sm" py="xl">
      <PageHeader
        title="Donate Blood"
        description="Book your donation and the blood bank will confirm it. One donation can save up to 3 lives."
      />
      <DonationForm />
    </Container>
  );
}

export function GameDashboardRoute() {
  useDocumentTitle('Blood Hero Game · Blood Bank');
  const location = useLocation();
  const navigate = useNavigate();
  const newAchievements = newAchievementsFrom(location.state);
  return (
    <Container size="lg" py="xl">
      <Group mb="md">
        <Anchor component={Link} to={paths.donor.dashboard} size="sm" fw={600}>
          <Group gap={4} component="span" wrap="nowrap">
            <IconArrowLeft size={16} aria-hidden />
            Back to Dashboard
          </Group>
        </Anchor>
      </Group>
      <GameDashboard
        headingOrder={1}
        newAchievements={newAchievements}
        // Forget the celebration, so a reload or Back does not show the modal again.
        onCelebrated={() => void navigate(location.pathname, { replace: true, state: null })}
      />
    </Container>
  );
}
