import { useWriteMutation } from '@/lib/use-write-mutation';
import { apiDownload } from '@/lib/api-client';
import { saveBlob } from '@/lib/save-blob';

export const EXPORT_NAMES = ['donations', 'requests', 'units'] as const;
export type ExportName = (typeof EXPORT_NAMES)[number];

/** GET /api/admin/export/{name}.csv as a blob: the token goes in the header, never in the URL. */
export async function downloadExport(name: ExportName): Promise<{ blob: Blob; filename: string }> {
  const { blob, filename } = await apiDownload(`/admin/export/${name}.csv`, { accept: 'text/csv' });
  return { blob, filename: filename ?? `${name}.csv` };
}

export function useDownloadExport() {
  return useWriteMutation({
    mutationFn: downloadExport,
    onSuccess: ({ blob, filename }) => saveBlob(blob, filename),
  });
}
