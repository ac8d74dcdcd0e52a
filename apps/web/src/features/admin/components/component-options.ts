import { COMPONENT_LABELS, type Component } from '@bloodbank/shared/components';

/** Red cells first: the default of the forms and what most requests need. */
export const COMPONENT_ORDER: readonly Component[] = ['red_cells', 'whole_blood', 'plasma', 'platelets'];

export const COMPONENT_OPTIONS = COMPONENT_ORDER.map((component) => ({
  value: component,
  label: COMPONENT_LABELS[component],
}));
