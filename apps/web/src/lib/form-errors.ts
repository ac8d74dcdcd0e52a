import type { BaseSyntheticEvent } from 'react';
import type { FieldErrors, FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { ApiError, errorMessage } from './api-client';
import { readableDates } from './format';

/**
 * Puts the server's field messages (`errors` of a 409/422) on the form's own fields and focuses the
 * first one. Returns the names it could not place, so the caller can show those elsewhere.
 */
export function applyServerFieldErrors<T extends FieldValues, Output extends FieldValues>(
  form: UseFormReturn<T, unknown, Output>,
  error: unknown,
  fields: readonly Path<T>[],
): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const unplaced: Record<string, string> = {};
  let focus = true;
  for (const [field, message] of Object.entries(error.errors)) {
    const known = fields.find((name) => name === field);
    if (known) {
      form.setError(known, { type: 'server', message: readableDates(message) }, { shouldFocus: focus });
      focus = false;
    } else {
      unplaced[field] = readableDates(message);
    }
  }
  return unplaced;
}

/**
 * What a form's alert says after a failed save, or null when every field message of the answer is
 * on one of `fields` (placed there by applyServerFieldErrors): the server's `detail` repeats the
 * first of them, and the same words twice on screen are read twice.
 */
export function formAlertMessage(error: unknown, fields: readonly string[], fallback: string): string | null {
  if (error instanceof ApiError) {
    const named = Object.keys(error.errors);
    if (named.length > 0 && named.every((name) => fields.includes(name))) return null;
  }
  return errorMessage(error, fallback);
}

/** Binds a field for Mantine inputs: react-hook-form's props plus the field's current message. */
export function fieldBinder<T extends FieldValues, Output extends FieldValues>(
  form: UseFormReturn<T, unknown, Output>,
) {
  return (name: Path<T>) => ({
    ...form.register(name),
    error: (form.formState.errors as Record<string, { message?: string } | undefined>)[name]?.message,
  });
}

/**
 * Focuses the first field with an error in the order the fields appear (document order): pass it
 * as handleSubmit's onInvalid, with useForm({ shouldFocusError: false }). react-hook-form focuses the
 * first one in the order the fields were registered, which is not the order on screen once a child
 * component draws some of them (Donate Blood's site and time, drawn after the date was registered).
 */
export function focusFirstInvalidField(errors: FieldErrors, event?: BaseSyntheticEvent): void {
  // The submit event's target is the form, whichever way it was sent (a button, Enter in a field).
  const form = event?.target;
  if (!(form instanceof HTMLFormElement)) return;
  const invalid = Object.keys(errors)
    .map((name) => {
      const named = form.elements.namedItem(name);
      return named instanceof RadioNodeList ? named[0] : named;
    })
    .filter((element): element is HTMLElement => element instanceof HTMLElement);
  const first = invalid.reduce<HTMLElement | null>(
    (earliest, element) =>
      earliest === null || element.compareDocumentPosition(earliest) & Node.DOCUMENT_POSITION_FOLLOWING
        ? element
        : earliest,
    null,
  );
  first?.focus();
}
