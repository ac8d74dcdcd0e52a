import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { ApiError } from './api-client';
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

/** Binds a field for Mantine inputs: react-hook-form's props plus the field's current message. */
export function fieldBinder<T extends FieldValues, Output extends FieldValues>(
  form: UseFormReturn<T, unknown, Output>,
) {
  return (name: Path<T>) => ({
    ...form.register(name),
    error: (form.formState.errors as Record<string, { message?: string } | undefined>)[name]?.message,
  });
}
