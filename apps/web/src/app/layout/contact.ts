/**
 * The blood bank's public contact details (spec section 1: a phone number and an e-mail). The
 * values are reserved example numbers and a reserved domain until a deployment sets its own.
 */
export const CONTACT = {
  phone: '+1 (555) 010-0199',
  phoneHref: 'tel:+15550100199',
  email: 'help@bloodbank.example',
} as const;

export const PRODUCT_NAME = 'Blood Bank';
