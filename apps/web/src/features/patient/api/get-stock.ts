import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { StockEntrySchema, type StockEntry } from '@bloodbank/shared/blood-request';
import { apiRequest } from '@/lib/api-client';

/** GET /api/stock: every group with its available, unexpired units. */
export function getStock(signal?: AbortSignal): Promise<StockEntry[]> {
  return apiRequest('/stock', { schema: z.array(StockEntrySchema), signal });
}

export const stockQueryKey = ['stock'] as const;

export function stockQueryOptions() {
  return queryOptions({
    queryKey: stockQueryKey,
    queryFn: ({ signal }) => getStock(signal),
  });
}

export function useStock() {
  return useQuery(stockQueryOptions());
}
