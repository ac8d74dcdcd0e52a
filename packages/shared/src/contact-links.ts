/**
 * The bank's contact details as links, without zod: the footer is on the first screen, which must
 * not wait for the validation library (scripts/check-bundle-size.mjs).
 */

/** The tel: link of a phone number as written ("+1 (555) 010-0199" -> "tel:+15550100199"). */
export function telHref(phone: string): string {
  return `tel:${phone.startsWith('+') ? '+' : ''}${phone.replace(/\D/g, '')}`;
}
