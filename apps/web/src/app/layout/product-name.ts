/** The product's name, in the header, the footer and the copyright line. The bank's contact details come from the server (lib/bank-contact.ts). */
export const PRODUCT_NAME = 'Blood Bank';
