import { z } from 'zod';
import { BLOOD_GROUPS, CAN_RECEIVE_FROM, type BloodGroup } from './blood-groups';

/**
 * Blood components (PRODUCT.md 3.3): a collection yields whole blood, which staff may separate into
 * red cells, plasma and platelets. Each keeps for its own time and has its own compatibility.
 */
export const COMPONENTS = ['whole_blood', 'red_cells', 'plasma', 'platelets'] as const;
export type Component = (typeof COMPONENTS)[number];
/** What a whole-blood unit can be separated into. */
export const SEPARATED_COMPONENTS = ['red_cells', 'plasma', 'platelets'] as const satisfies readonly Component[];
export type SeparatedComponent = (typeof SEPARATED_COMPONENTS)[number];

export const COMPONENT_LABELS: Record<Component, string> = {
  whole_blood: 'Whole blood',
  red_cells: 'Red cells',
  plasma: 'Plasma',
  platelets: 'Platelets',
};
/** In a sentence: "gave red cells and plasma". */
export const COMPONENT_WORDS: Record<Component, string> = {
  whole_blood: 'whole blood',
  red_cells: 'red cells',
  plasma: 'plasma',
  platelets: 'platelets',
};

/** "red cells", "red cells and plasma", "red cells, plasma and platelets". */
export function listInWords(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? '';
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

/** Components in a sentence: "red cells and plasma". */
export const componentsInWords = (components: readonly Component[]) =>
  listInWords(components.map((component) => COMPONENT_WORDS[component]));

/** Shelf lives in days (21 CFR 610.53), the defaults of the *_SHELF_LIFE_DAYS settings. */
export const DEFAULT_SHELF_LIFE_DAYS: Record<Component, number> = {
  whole_blood: 35,
  red_cells: 42,
  plasma: 365,
  platelets: 5,
};

export const DEFAULT_COMPONENT: Component = 'red_cells';

/** The units that can fill a request for a component: a red-cell request also takes whole blood. */
export function unitComponentsFor(requested: Component): readonly Component[] {
  return requested === 'red_cells' ? ['red_cells', 'whole_blood'] : [requested];
}

/** "Units of blood" on every screen (PRODUCT.md 3.3): red cells plus whole blood. */
export const RED_CELL_UNIT_COMPONENTS = unitComponentsFor('red_cells');

const ABO = (group: BloodGroup) => group.replace(/[+-]$/, '');

/**
 * The groups a patient of `recipient` may be given `component` from, the patient's own group
 * first: red cells and whole blood per the spec's table; plasma the other way round (AB plasma to
 * anyone; A to A and O; B to B and O; O to O only; Rh does not matter); platelets any group,
 * ABO-identical first.
 */
export function compatibleDonorGroups(component: Component, recipient: BloodGroup): BloodGroup[] {
  const ownFirst = (groups: readonly BloodGroup[]) => [
    ...groups.filter((group) => group === recipient),
    ...groups.filter((group) => group !== recipient),
  ];
  if (component === 'red_cells' || component === 'whole_blood') return ownFirst(CAN_RECEIVE_FROM[recipient]);
  if (component === 'plasma') {
    const recipientAbo = ABO(recipient);
    // Plasma carries the donor's antibodies: the donor's ABO antigens must cover the recipient's.
    const covers = (donor: BloodGroup) => {
      const donorAbo = ABO(donor);
      return donorAbo === 'AB' || donorAbo === recipientAbo || recipientAbo === 'O';
    };
    return ownFirst(BLOOD_GROUPS.filter(covers));
  }
  const identical = BLOOD_GROUPS.filter((group) => ABO(group) === ABO(recipient));
  return [...ownFirst(identical), ...BLOOD_GROUPS.filter((group) => !identical.includes(group))];
}

export function canGiveComponent(component: Component, donor: BloodGroup, recipient: BloodGroup): boolean {
  return compatibleDonorGroups(component, recipient).includes(donor);
}

export function componentField(message = 'Please choose a component') {
  return z.enum(COMPONENTS, { error: message });
}

export const ComponentCountsSchema = z.object({
  whole_blood: z.number().int(),
  red_cells: z.number().int(),
  plasma: z.number().int(),
  platelets: z.number().int(),
});
export type ComponentCounts = z.infer<typeof ComponentCountsSchema>;

export const emptyComponentCounts = (): ComponentCounts => ({ whole_blood: 0, red_cells: 0, plasma: 0, platelets: 0 });

/** "Units of blood": red cells plus whole blood. */
export const redCellUnitsOf = (counts: ComponentCounts) => counts.red_cells + counts.whole_blood;
