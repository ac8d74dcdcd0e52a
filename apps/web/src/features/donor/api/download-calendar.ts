import { useWriteMutation } from '@/lib/use-write-mutation';
import { apiDownload } from '@/lib/api-client';
import { saveBlob } from '@/lib/save-blob';

/**
 * GET /api/donations/:id/calendar.ics: the booking as a calendar event, read as a blob so the token
 * travels in the header (never in a URL).
 */
export async function downloadCalendar(id: number): Promise<{ blob: Blob; filename: string }> {
  const { blob, filename } = await apiDownload(`/donations/${id}/calendar.ics`, { accept: 'text/calendar' });
  return { blob, filename: filename ?? `blood-donation-${id}.ics` };
}

export function useDownloadCalendar() {
  return useWriteMutation({
    mutationFn: downloadCalendar,
    onSuccess: ({ blob, filename }) => saveBlob(blob, filename),
  });
}
