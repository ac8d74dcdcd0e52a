import { Fragment } from 'react';
import type { WeeklyHours } from '@bloodbank/shared/sites';
import { openingHoursRuns } from '@/lib/site-hours';

/**
 * A site's week as text, "Mon–Fri 08:00–16:00 · Sat 09:00–13:00", where a narrow column breaks the
 * line between two runs of days, never inside one ("08:00–" on one line, "16:00" on the next).
 */
export function OpeningHours({ hours }: { hours: WeeklyHours }) {
  const runs = openingHoursRuns(hours);
  if (runs.length === 0) return <>Closed every day</>;
  return (
    <>
      {runs.map((run, index) => (
        <Fragment key={run}>
          {index > 0 ? ' · ' : null}
          <span style={{ whiteSpace: 'nowrap' }}>{run}</span>
        </Fragment>
      ))}
    </>
  );
}
