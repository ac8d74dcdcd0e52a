import { useMutation } from '@tanstack/react-query';
import { apiDownload } from '@/lib/api-client';

export const EXPORT_NAMES = ['donations', 'requests', 'units'] as const;
export type ExportName = (typeof EXPORT_NAMES)[number];

/** GET /api/admin/export/{name}.csv as a blob: the token goes in the header, never in the URL. */
export async function downloadExport(name: ExportName): Promise<{ blob: Blob; filename: string }> {
  const { blob, filename } = await apiDownload(`/admin/export/${name}.csv`, { accept: 'text/csv' });
  return { blob, filename: filename ?? `${name}.csv` };
}

/** Hands the blob to the browser as a download. */
function saveBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next tick: the click has started the download by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function useDownloadExport() {
  return useMutation({
    mutationFn: downloadExport,
    onSuccess: ({ blob, filename }) => saveBlob(blob, filename),
  });
}
