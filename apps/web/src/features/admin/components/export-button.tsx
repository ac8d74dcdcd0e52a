import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { errorMessage } from '@/lib/api-client';
import { useDownloadExport, type ExportName } from '../api/download-export';
import { notify } from '../notify';

const LABELS: Record<ExportName, string> = { donations: 'donations', requests: 'requests', units: 'units' };

/** Downloads every donation, request or unit as CSV (formula-safe cells, see the server's csv.ts). */
export function ExportButton({ name }: { name: ExportName }) {
  const download = useDownloadExport();
  return (
    <Button
      variant="default"
      leftSection={<IconDownload size={16} aria-hidden />}
      disabled={download.isPending}
      onClick={() =>
        download.mutate(name, {
          onError: (error) =>
            notify({
              failed: true,
              title: 'Export failed',
              message: errorMessage(error, `The ${LABELS[name]} could not be exported. Please try again.`),
            }),
        })
      }
    >
      {download.isPending ? 'Exporting...' : `Export ${LABELS[name]} (CSV)`}
    </Button>
  );
}
