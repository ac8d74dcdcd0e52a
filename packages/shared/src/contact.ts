import { z } from 'zod';

/**
 * The blood bank's public contact details (spec section 1: the footer's phone number and e-mail),
 * set by BANK_PHONE and BANK_EMAIL. The defaults are a reserved example number (555-01xx) and a
 * reserved domain, for the demo; a deployment sets its own (the server warns when it has not).
 */
export const EXAMPLE_CONTACT = { phone: '+1 (555) 010-0199', email: 'help@bloodbank.example' } as const;

/** A phone number as people write it: digits, spaces, + ( ) - . and at least 6 digits. */
export const ContactPhoneSchema = z
  .string()
  .trim()
  .regex(/^\+?[0-9 ().-]{6,30}$/, 'must be a phone number: digits, spaces and + ( ) - .')
  .refine((phone) => phone.replace(/\D/g, '').length >= 6, 'must hold at least 6 digits');

/**
 * GET /api/public/contact: the bank's public details, asked once by every visit. `time_zone` is the
 * bank's (TIMEZONE), so the web app's "today" is the bank's calendar day, as the server's is.
 */
export const ContactSchema = z.object({ phone: z.string(), email: z.string(), time_zone: z.string() });
export type Contact = z.infer<typeof ContactSchema>;

export { telHref } from './contact-links';
