import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { deferred, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { ExportButton } from './export-button';

describe('Export (CSV)', () => {
  it('keeps the keyboard on the button while it exports, ignores a second press, and says when the file is there', async () => {
    vi.stubGlobal(
      'URL',
      class extends URL {
        static override createObjectURL = vi.fn(() => 'blob:export');
        static override revokeObjectURL = vi.fn();
      },
    );
    // jsdom cannot follow a download link.
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const answer = deferred<Response>();
    const api = mockApi({ 'GET /api/admin/export/donations.csv': () => answer.promise });
    const { user } = renderScreen(<ExportButton name="donations" />);
    const button = screen.getByRole('button', { name: 'Export donations (CSV)' });

    await user.click(button);
    const busy = screen.getByRole('button', { name: 'Exporting...' });
    expect(busy).toHaveFocus();
    expect(busy).toHaveAttribute('aria-disabled', 'true');
    await user.click(busy);
    expect(api.requests).toHaveLength(1);

    answer.resolve(
      new Response('id,status\n1,released\n', {
        status: 200,
        headers: {
          'content-type': 'text/csv',
          'content-disposition': 'attachment; filename="donations.csv"',
        },
      }),
    );
    expect(await screen.findByText('The donations were downloaded as a CSV file.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Export donations (CSV)' })).toHaveFocus());
  });
});
