import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { errorMessage } from '@/lib/api-client';
import { useDownloadExport, type ExportName } from '../api/download-export';
import { notify } from '../notify';
import { busyButtonProps } from '@/lib/busy-button';

const LABELS: Record<ExportName, string> = { donations: 'donations', requests: 'requests', units: 'units' };

/** Downloads every donation, request or unit as CSV (formula-safe cells, see the server's csv.ts). */
export function ExportButton({ name }: { name: ExportName }) {
  const download = useDownloadExport();
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden />}
      {...busyButtonProps(download.isPending)}
      onClick={() => {
        if (download.isPending) return;
        download.mutate(name, {
          // Said too: the browser's download bar is not read out.
          onSuccess: () =>
            notify({ title: 'Export ready', message: `The ${LABELS[name]} were downloaded as a CSV file.` }),
          onError: (error) =>
            notify({
              failed: true,
              title: 'Export failed',
              message: errorMessage(error, `The ${LABELS[name]} could not be exported. Please try again.`),
            }),
        });
      }}
    >
      {download.isPending ? 'Exporting...' : `Export ${LABELS[name]} (CSV)`}
    </Button>
  );
}
