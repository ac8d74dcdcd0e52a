import type { ReactNode } from 'react';
import { Paper } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { Paged } from '@bloodbank/shared/admin';
import { ErrorAlert } from '@/components/ui/error-alert';
import { PageLoader } from '@/components/ui/page-loader';
import { errorMessage } from '@/lib/api-client';

interface ListStatesProps<T> {
  query: UseQueryResult<Paged<T>>;
  /** Announced while the first page loads: "Loading donors". */
  loadingLabel: string;
  errorText: string;
  /** Shown when the list (with the current filters) has nothing. */
  empty: ReactNode;
  /** The page asked for lies past the end and the last one is on its way: loading, not empty. */
  turningBack?: boolean;
  children: (page: Paged<T>) => ReactNode;
}

/** Loading, error (with Retry) and empty states around a paged list; the list itself otherwise. */
export function ListStates<T>({
  query,
  loadingLabel,
  errorText,
  empty,
  turningBack = false,
  children,
}: ListStatesProps<T>) {
  if (query.isPending || turningBack) return <PageLoader label={loadingLabel} />;
  if (query.isError && !query.data) {
    return (
      <ErrorAlert
        message={errorMessage(query.error, errorText)}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  const data = query.data;
  if (!data || data.total === 0 || data.items.length === 0) {
    return (
      <Paper withBorder radius="md">
        {empty}
      </Paper>
    );
  }
  return (
    <>
      {query.isError ? (
        <ErrorAlert
          message={errorMessage(query.error, errorText)}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : null}
      {children(data)}
    </>
  );
}
