import { Badge, VisuallyHidden } from '@mantine/core';
import { NavLink } from 'react-router';
import { ADMIN_SECTIONS } from '@/app/layout/navigation';
import { paths } from '@/app/paths';
import { useDashboard } from '../api/get-dashboard';
import classes from './admin-nav.module.css';

/** The sections whose link shows how many entries wait for a decision. */
const PENDING: Partial<Record<string, 'pendingRequests' | 'bookingsDue'>> = {
  [paths.admin.requests]: 'pendingRequests',
  // Donations: the bookings staff can act on today (later ones cannot be collected yet).
  [paths.admin.donations]: 'bookingsDue',
};

/**
 * The admin area's own navigation (the header only has Dashboard, spec section 2). It wraps onto a
 * second and third row on a phone rather than scrolling sections out of sight; Requests and
 * Donations show how many wait for a decision.
 */
export function AdminNav() {
  const dashboard = useDashboard();
  return (
    <nav aria-label="Administration" className={classes.nav}>
      {ADMIN_SECTIONS.map((link) => {
        const pendingKey = PENDING[link.to];
        const pending = pendingKey && dashboard.data ? dashboard.data[pendingKey] : 0;
        return (
          <NavLink key={link.to} to={link.to} end className={classes.link}>
            {link.label}
            {pending > 0 ? (
              <Badge size="sm" circle={pending < 10} color="blood">
                {pending}
                <VisuallyHidden> pending</VisuallyHidden>
              </Badge>
            ) : null}
          </NavLink>
        );
      })}
    </nav>
  );
}
