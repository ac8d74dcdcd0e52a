import { Badge, VisuallyHidden } from '@mantine/core';
import { NavLink } from 'react-router';
import { ADMIN_SECTIONS } from '@/app/layout/navigation';
import { paths } from '@/app/paths';
import { useDashboard } from '../api/get-dashboard';
import classes from './admin-nav.module.css';
import { formatCount } from '@/lib/format';

/**
 * The sections whose link shows how many entries wait for a decision, and what the number counts
 * in words (read by screen readers and shown on hover): the dashboard's count, never another one.
 */
const PENDING: Partial<
  Record<string, { key: 'pendingRequests' | 'bookingsDue'; words: (count: number) => string }>
> = {
  [paths.admin.requests]: {
    key: 'pendingRequests',
    words: (count) => `${formatCount(count)} pending ${count === 1 ? 'request' : 'requests'}`,
  },
  // Donations: the bookings staff can act on today, booked for today or earlier (Manage Donations'
  // "Bookings due today"); later ones cannot be collected yet and are not counted.
  [paths.admin.donations]: {
    key: 'bookingsDue',
    words: (count) => `${formatCount(count)} ${count === 1 ? 'booking' : 'bookings'} due today`,
  },
};

/**
 * The admin area's own navigation (the header only has Dashboard, spec section 2). It wraps onto a
 * second and third row on a phone rather than scrolling sections out of sight; Requests and
 * Donations show how many wait for a decision.
 */
export function AdminNav() {
  const dashboard = useDashboard();
  return (
    <nav aria-label="Administration" className={classes.nav} data-print="hide">
      {ADMIN_SECTIONS.map((link) => {
        const counted = PENDING[link.to];
        const pending = counted && dashboard.data ? dashboard.data[counted.key] : 0;
        return (
          <NavLink key={link.to} to={link.to} end className={classes.link}>
            {link.label}
            {counted && pending > 0 ? (
              <>
                {/* The bare number is for the eye; its words are said outside the badge, whose
                    capitals would otherwise be read out ("3 PENDING"). */}
                <Badge
                  size="sm"
                  circle={pending < 10}
                  color="blood"
                  title={counted.words(pending)}
                  aria-hidden
                >
                  {formatCount(pending)}
                </Badge>
                {/* The space keeps the link's name "Donations 2 bookings due today", not "Donations2 …". */}
                <VisuallyHidden> {counted.words(pending)}</VisuallyHidden>
              </>
            ) : null}
          </NavLink>
        );
      })}
    </nav>
  );
}
