import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { availableUnit } from '../testing/fixtures';
import { DiscardUnitDialog } from './discard-unit-dialog';

/** A red-cell unit on the shelf (the admin fixtures'). */
const unit = availableUnit;

describe('the Discard unit dialog', () => {
  it('puts focus on the Reason field when it is sent empty, so its message is read', async () => {
    const api = mockApi({});
    const { user } = renderScreen(<DiscardUnitDialog unit={unit} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Discard unit #7?' });
    const reason = within(dialog).getByRole('textbox', { name: /Reason/ });

    await user.click(within(dialog).getByRole('button', { name: 'Discard unit' }));
    expect(await within(dialog).findByText('Reason is required')).toBeInTheDocument();
    expect(reason).toHaveFocus();
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(reason).toHaveAccessibleDescription(/Reason is required/);
    expect(api.requests.some((request) => request.method === 'POST')).toBe(false);

    // Blank is empty too; focus left on the button is brought back to the field.
    await user.type(reason, '   ');
    await user.tab();
    await user.tab();
    await user.keyboard('{Enter}');
    expect(await within(dialog).findByText('Reason is required')).toBeInTheDocument();
    expect(reason).toHaveFocus();
  });
});
