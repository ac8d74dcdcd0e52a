import type { ReactNode } from 'react';
import {
  Anchor,
  Badge,
  Box,
  Button,
  Container,
  Group,
  Skeleton,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import {
  IconAlertCircle,
  IconAlertTriangle,
  IconArrowDown,
  IconCheck,
  IconRefresh,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { BLOOD_GROUPS } from '@bloodbank/shared/blood-groups';
import { SUPPLY_LEVEL_LABELS, type SupplyLevel } from '@bloodbank/shared/supply';
import { paths } from '@/app/paths';
import { useAuth, type AuthState } from '@/lib/auth/auth-context';
import { usePublicSupply } from '../api/get-public-supply';
import classes from './home.module.css';

/** Each level has its word and its own icon as well as its colour, so none relies on colour alone. */
const LEVEL_LOOKS: Record<SupplyLevel, { className: string | undefined; icon: ReactNode }> = {
  critical: { className: classes.supplyCritical, icon: <IconAlertTriangle size={14} aria-hidden /> },
  low: { className: classes.supplyLow, icon: <IconArrowDown size={14} aria-hidden /> },
  good: { className: classes.supplyGood, icon: <IconCheck size={14} aria-hidden /> },
};

interface Invitation {
  lead: string;
  label: string;
  to: string;
}

const BOOK_AS_VISITOR: Invitation = {
  lead: 'Low or critical?',
  label: 'Book a donation',
  // After the login, straight on to the booking form, not the dashboard.
  to: `${paths.donor.login}?next=${encodeURIComponent(paths.donor.donate)}`,
};
const BOOK_AS_DONOR: Invitation = {
  lead: 'Low or critical?',
  label: 'Book a donation',
  to: paths.donor.donate,
};
const REQUEST_AS_PATIENT: Invitation = {
  lead: 'Need blood?',
  label: 'Request Blood',
  to: paths.patient.makeRequest,
};

/**
 * What the strip invites the reader to do, by who they are: a visitor books through the donor
 * login, a signed-in donor goes straight to Donate Blood, a patient is offered Request Blood (the
 * donor login would only tell them they are signed in). The admin, or a session still being
 * checked, gets no invitation.
 */
function invitationFor(auth: AuthState): Invitation | null {
  if (auth.status === 'signed-out') return BOOK_AS_VISITOR;
  if (auth.role === 'DONOR') return BOOK_AS_DONOR;
  if (auth.role === 'PATIENT') return REQUEST_AS_PATIENT;
  return null;
}

/**
 * "Blood supply today" (PRODUCT.md 3.8): each group's red-cell supply as Critical, Low or Good,
 * as the server computes it; the server never sends a count, and neither does this.
 */
export function SupplyStrip() {
  const supply = usePublicSupply();
  const invitation = invitationFor(useAuth());
  const levels = new Map(supply.data?.map((entry) => [entry.bloodgroup, entry.level]));

  return (
    <Box
      component="section"
      className={classes.supplyBand}
      aria-labelledby="supply-title"
      aria-busy={supply.isPending}
    >
      <Container size="lg">
        <Stack gap={4} mb="lg" ta="center">
          <Title order={2} id="supply-title">
            Blood supply today
          </Title>
          <Text c="dimmed">Red cells by blood group, right now.</Text>
        </Stack>

        {supply.isError ? (
          <Stack align="center" gap="sm" role="alert">
            <Group gap={8} wrap="nowrap">
              <IconAlertCircle size={20} aria-hidden />
              <Text>We could not load the blood supply.</Text>
            </Group>
            <Button
              variant="light"
              leftSection={<IconRefresh size={16} aria-hidden />}
              onClick={() => void supply.refetch()}
              disabled={supply.isFetching}
            >
              {supply.isFetching ? 'Retrying...' : 'Retry'}
            </Button>
          </Stack>
        ) : (
          <ul className={classes.supplyList}>
            {BLOOD_GROUPS.map((bloodgroup) => {
              const level = levels.get(bloodgroup);
              return (
                <li
                  key={bloodgroup}
                  className={classes.supplyItem}
                  data-level={level}
                  data-testid={`supply-${bloodgroup}`}
                >
                  <span className={classes.supplyGroup}>{bloodgroup}</span>
                  {level ? (
                    <Badge
                      size="lg"
                      radius="sm"
                      tt="none"
                      className={LEVEL_LOOKS[level].className}
                      classNames={{ label: classes.supplyLabel, section: classes.supplyIcon }}
                      leftSection={LEVEL_LOOKS[level].icon}
                    >
                      {SUPPLY_LEVEL_LABELS[level]}
                    </Badge>
                  ) : supply.isPending ? (
                    <Skeleton height={26} width={72} radius="sm" />
                  ) : (
                    // The server always answers all eight; should one be missing, say so rather than guess.
                    <Text size="sm" c="dimmed">
                      Not known
                    </Text>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        {supply.isPending ? <VisuallyHidden role="status">Loading the blood supply…</VisuallyHidden> : null}

        {invitation ? (
          <Text ta="center" mt="lg" fw={600}>
            {invitation.lead}{' '}
            <Anchor component={Link} to={invitation.to} underline="always" fw={700}>
              {invitation.label}
            </Anchor>
            .
          </Text>
        ) : null}
      </Container>
    </Box>
  );
}
