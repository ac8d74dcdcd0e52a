import { useState } from 'react';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { TablePagination } from './table-pagination';

/** Two paged lists on one screen, as Manage Donations has four; `total` changes as an action would. */
function TwoLists() {
  const [due, setDue] = useState(1);
  const [upcoming, setUpcoming] = useState(1);
  const [total, setTotal] = useState(45);
  return (
    <>
      <section aria-label="Due today">
        <TablePagination label="Due today" page={due} pageSize={20} total={total} onChange={setDue} />
      </section>
      <section aria-label="Upcoming">
        <TablePagination label="Upcoming" page={upcoming} pageSize={20} total={30} onChange={setUpcoming} />
      </section>
      <button type="button" onClick={() => setTotal(44)}>
        Collect one
      </button>
    </>
  );
}

describe('TablePagination', () => {
  it('writes large counts as every other number on the screens: 10,000, not 10000', async () => {
    mockApi({});
    const { user } = renderScreen(
      <TablePagination label="Donors" page={500} pageSize={20} total={10000} onChange={() => undefined} />,
    );
    expect(screen.getByText('Showing 9,981–10,000 of 10,000')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(screen.getByRole('status')).toHaveTextContent(
      'Donors: page 499 of 500, showing 9,961–9,980 of 10,000',
    );
  });

  it('does not read every list’s count after each change, only the page the user turned to', async () => {
    mockApi({});
    const { user } = renderScreen(<TwoLists />);
    const due = screen.getByRole('region', { name: 'Due today' });
    const upcoming = screen.getByRole('region', { name: 'Upcoming' });

    // The counts are shown, but they are not live regions, and nothing is announced on arrival.
    expect(within(due).getByText('Showing 1–20 of 45').closest('[role="status"]')).toBeNull();
    expect(within(upcoming).getByText('Showing 1–20 of 30').closest('[role="status"]')).toBeNull();
    const liveTexts = () => screen.queryAllByRole('status').map((region) => region.textContent);
    expect(liveTexts()).toEqual(['', '']);

    // A change to the data (an action elsewhere on the screen) announces nothing.
    await user.click(screen.getByRole('button', { name: 'Collect one' }));
    expect(within(due).getByText('Showing 1–20 of 44')).toBeInTheDocument();
    expect(liveTexts()).toEqual(['', '']);

    // Turning a page of one list announces that list's new page, once.
    await user.click(within(due).getByRole('button', { name: 'Page 2' }));
    expect(within(due).getByText('Showing 21–40 of 44')).toBeInTheDocument();
    expect(within(due).getByRole('status')).toHaveTextContent('Due today: page 2 of 3, showing 21–40 of 44');
    expect(within(upcoming).getByRole('status')).toHaveTextContent(/^$/);
  });
});
