import { screen } from '@testing-library/react';
import { Button, Drawer, Modal } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '@/test/render';
import { mockApi } from '@/test/mock-api';
import { ConfirmDialog } from './confirm-dialog';

describe("a dialog's title bar", () => {
  it('is no second banner landmark, in a modal or a drawer (axe landmark-no-duplicate-banner)', async () => {
    mockApi({});
    renderScreen(
      <>
        <header>
          <Button>Page header</Button>
        </header>
        <ConfirmDialog
          opened
          title="Approve request #38"
          confirmLabel="Approve"
          busyLabel="Approving..."
          busy={false}
          onConfirm={() => undefined}
          onClose={() => undefined}
        >
          Two units will be issued.
        </ConfirmDialog>
        <Modal opened onClose={() => undefined} title="Plain modal">
          Text
        </Modal>
        <Drawer opened onClose={() => undefined} title="A person">
          Text
        </Drawer>
      </>,
    );
    expect(await screen.findByRole('dialog', { name: 'Approve request #38' })).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Plain modal' })).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'A person' })).toBeInTheDocument();
    // Only the page's own header is a banner; every dialog's title bar is a plain element.
    expect(screen.getAllByRole('banner', { hidden: true })).toHaveLength(1);
    expect(document.querySelectorAll('header')).toHaveLength(1);
    // The title and close button are still there.
    expect(screen.getAllByRole('button', { name: /Close/ }).length).toBeGreaterThanOrEqual(3);
  });
});
