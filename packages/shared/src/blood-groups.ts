/** The eight ABO/Rh blood groups, in the order every screen lists them. */
export const BLOOD_GROUPS = ['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-'] as const;
export type BloodGroup = (typeof BLOOD_GROUPS)[number];

/**
 * Red-cell compatibility: which groups a donor of each group can give to.
 * This is the table the home page shows and the rule admins use to approve from another group.
 */
export const CAN_DONATE_TO: Record<BloodGroup, readonly BloodGroup[]> = {
  'A+': ['A+', 'AB+'],
  'A-': ['A+', 'A-', 'AB+', 'AB-'],
  'B+': ['B+', 'AB+'],
  'B-': ['B+', 'B-', 'AB+', 'AB-'],
  'AB+': ['AB+'],
  'AB-': ['AB+', 'AB-'],
  'O+': ['A+', 'B+', 'AB+', 'O+'],
  'O-': ['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-'],
};

/** The inverse of CAN_DONATE_TO: the groups a recipient of each group can receive from. */
export const CAN_RECEIVE_FROM: Record<BloodGroup, readonly BloodGroup[]> = Object.fromEntries(
  BLOOD_GROUPS.map((recipient) => [
    recipient,
    BLOOD_GROUPS.filter((donor) => CAN_DONATE_TO[donor].includes(recipient)),
  ]),
) as unknown as Record<BloodGroup, readonly BloodGroup[]>;

export function canDonateTo(donor: BloodGroup, recipient: BloodGroup): boolean {
  return CAN_DONATE_TO[donor].includes(recipient);
}

export function isBloodGroup(value: unknown): value is BloodGroup {
  return typeof value === 'string' && (BLOOD_GROUPS as readonly string[]).includes(value);
}

/**
 * Share of each group in the population a blood bank serves (the figures issue 24 gives, close to
 * the American Red Cross's for the US). The demo and benchmark data draw donors, patients and
 * requests from these shares, so stock is uneven across groups as it is in life.
 */
export const POPULATION_SHARES: Record<BloodGroup, number> = {
  'O+': 0.38,
  'A+': 0.34,
  'B+': 0.09,
  'O-': 0.07,
  'A-': 0.06,
  'AB+': 0.03,
  'B-': 0.02,
  'AB-': 0.01,
};
