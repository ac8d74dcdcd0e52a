/**
 * Ids of the parts of Manage Blood that other screens link to (`/admin-blood#receive-units`); the
 * page opens there (lib/use-scroll-to-hash.ts).
 */
export const BLOOD_ANCHORS = {
  /** The Receive Units form: the dashboard's low-stock card. */
  receiveUnits: 'receive-units',
  /** The Units table's heading: the dashboard's expiring-units card. */
  units: 'units',
  /** The "Unit number" search, to find one bag: the page's top and the Discard Units form. */
  unitSearch: 'find-unit',
} as const;
