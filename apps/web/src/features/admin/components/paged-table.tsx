import { useEffect, type ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Paged } from '@bloodbank/shared/admin';
import { DataTable, type DataTableProps } from './data-table';
import { ListStates } from './list-states';
import { TablePagination } from './table-pagination';

interface PagedTableProps<T> extends Omit<DataTableProps<T>, 'rows' | 'busy'> {
  query: UseQueryResult<Paged<T>>;
  /** Announced while the first page loads: "Loading donors". */
  loadingLabel: string;
  errorText: string;
  /** Shown when the list (with the current filters) has nothing. */
  empty: ReactNode;
  /** What is being paged, for the page navigation's name: "Donors". */
  pagesLabel: string;
  page: number;
  onPageChange: (page: number) => void;
}

/**
 * Every paged admin list: loading, error (with Retry) and empty states, the table (the current
 * rows stay, dimmed, while the next page loads), then "Showing 21–40 of 51" and the page buttons.
 */
export function PagedTable<T>({
  query,
  loadingLabel,
  errorText,
  empty,
  pagesLabel,
  page,
  onPageChange,
  ...table
}: PagedTableProps<T>) {
  // A page past the end (the last rows were just decided, or an old link): the list is not empty,
  // it ends sooner. The last page is shown instead of "No ... yet", which left no way back.
  const data = query.data;
  const lastPage = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const pastTheEnd =
    !!data && !query.isPlaceholderData && data.total > 0 && data.items.length === 0 && page > lastPage;
  useEffect(() => {
    if (pastTheEnd) onPageChange(lastPage);
    // onPageChange is a new function on every render of the screen; the page to go to is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pastTheEnd, lastPage]);
  return (
    <ListStates
      query={query}
      loadingLabel={loadingLabel}
      errorText={errorText}
      empty={empty}
      turningBack={pastTheEnd}
    >
      {(data) => (
        <>
          <DataTable {...table} rows={data.items} busy={query.isPlaceholderData} />
          <TablePagination
            label={pagesLabel}
            page={page}
            pageSize={data.pageSize}
            total={data.total}
            onChange={onPageChange}
          />
        </>
      )}
    </ListStates>
  );
}
