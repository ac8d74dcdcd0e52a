import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred, jsonResponse, mockApi } from '@/test/mock-api';
import { renderScreen } from '@/test/render';
import { Footer } from './footer';

describe('Footer: the bank contact details (spec section 1, BANK_PHONE and BANK_EMAIL)', () => {
  it('shows the phone and e-mail the server is configured with, as call and mail links', async () => {
    mockApi({
      'GET /api/public/contact': () =>
        jsonResponse(200, { phone: '+44 20 7946 0018', email: 'donors@bank.example.org' }),
    });
    renderScreen(<Footer />);
    expect(await screen.findByRole('link', { name: '+44 20 7946 0018' })).toHaveAttribute(
      'href',
      'tel:+442079460018',
    );
    expect(screen.getByRole('link', { name: 'donors@bank.example.org' })).toHaveAttribute(
      'href',
      'mailto:donors@bank.example.org',
    );
  });

  it('holds their place while they load, and says so when they cannot be loaded', async () => {
    const answer = deferred<Response>();
    mockApi({ 'GET /api/public/contact': () => answer.promise });
    renderScreen(<Footer />);
    expect(await screen.findByRole('status')).toHaveTextContent('Loading contact details…');
    answer.resolve(jsonResponse(503, { detail: 'The service is unavailable' }));
    expect(
      await screen.findByText('Contact details could not be loaded. Please try again later.'),
    ).toBeInTheDocument();
    // Only the three quick links: no made-up number to call.
    expect(screen.getAllByRole('link').map((link) => link.textContent)).toEqual([
      'Home',
      'Become a Donor',
      'Register as Patient',
    ]);
  });
});
