import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SITE_MESSAGES, type Site } from '@bloodbank/shared/sites';
import { jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { SiteFormDrawer } from './site-form-drawer';

/**
 * A name another site has (PRODUCT.md 3.6): the server answers 409 with the message on `name`, as
 * for a taken username; the form shows it under Site name, focuses the field, says nothing above
 * the form and stays open.
 */

const NAME_TAKEN = {
  detail: SITE_MESSAGES.nameTaken,
  code: 'site_name_taken',
  errors: { name: SITE_MESSAGES.nameTaken },
};

const WAKAD: Site = {
  id: 7,
  name: 'Wakad Centre',
  address: '2 Station Road, Pune',
  hours: {
    monday: { open: '08:00', close: '16:00' },
    tuesday: null,
    wednesday: null,
    thursday: null,
    friday: null,
    saturday: null,
    sunday: null,
  },
  slot_minutes: 15,
  capacity: 2,
  closed_dates: [],
  active: true,
};

function renderForm(site: Site | 'new', handlers: Parameters<typeof mockApi>[0]) {
  const api = mockApi(handlers);
  const onClose = vi.fn();
  return { api, onClose, ...renderScreen(<SiteFormDrawer site={site} onClose={onClose} />) };
}

describe('SiteFormDrawer: a site name that is taken', () => {
  it('shows the 409 of a new site under Site name', async () => {
    const { api, user, onClose } = renderForm('new', {
      'POST /api/admin/sites': () => jsonResponse(409, NAME_TAKEN),
    });
    const form = await screen.findByRole('form', { name: 'Add site' });
    await user.type(screen.getByLabelText(/site name/i), 'kothrud camp');
    await user.type(screen.getByLabelText(/address/i), '5 Hill Road, Pune');
    await user.click(within(form).getByRole('button', { name: 'Add site' }));

    const name = screen.getByLabelText(/site name/i);
    expect(await screen.findByText(SITE_MESSAGES.nameTaken)).toBeInTheDocument();
    expect(name).toHaveAccessibleDescription(SITE_MESSAGES.nameTaken);
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveFocus();
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    expect(api.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it("shows the 409 of a rename onto another site's name under Site name", async () => {
    const { user, onClose } = renderForm(WAKAD, {
      'PATCH /api/admin/sites/7': () => jsonResponse(409, NAME_TAKEN),
    });
    const form = await screen.findByRole('form', { name: 'Edit site' });
    const name = screen.getByLabelText(/site name/i);
    await user.clear(name);
    await user.type(name, 'Aundh Centre');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));

    expect(await screen.findByText(SITE_MESSAGES.nameTaken)).toBeInTheDocument();
    expect(name).toHaveAccessibleDescription(SITE_MESSAGES.nameTaken);
    expect(name).toHaveValue('Aundh Centre');
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});
