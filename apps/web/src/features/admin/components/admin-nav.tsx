import { Badge, VisuallyHidden } from '@mantine/core';
import { NavLink } from 'react-router';
import { paths } from '@/app/paths';
import { useDashboard } from '../api/get-dashboard';
import classes from './admin-nav.module.css';

const LINKS = [
  { label: 'Dashboard', to: paths.admin.dashboard },
  { label: 'Donors', to: paths.admin.donors },
  { label: 'Patients', to: paths.admin.patients },
  { label: 'Blood', to: paths.admin.blood },
  { label: 'Requests', to: paths.admin.requests, pending: 'pendingRequests' },
  { label: 'Donations', to: paths.admin.donations, pending: 'pendingDonations' },
  { label: 'Audit Log', to: paths.admin.audit },
] as const;

/**
 * The admin area's own navigation (the header only has Dashboard, spec section 2). Scrolls
 * sideways on a phone; Requests and Donations show how many wait for a decision.
 */
export function AdminNav() {
  const dashboard = useDashboard();
  return (
    <nav aria-label="Administration" className={classes.nav}>
      {LINKS.map((link) => {
        const pending = 'pending' in link && dashboard.data ? dashboard.data[link.pending] : 0;
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
