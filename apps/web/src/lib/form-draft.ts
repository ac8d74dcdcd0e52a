import { useCallback, useEffect, useMemo, useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';

/**
 * What a user has typed into a long form, kept in this tab (sessionStorage) until the form is sent:
 * a reload, the Back button, or a session that expires mid-form (the login brings them back to the
 * page) then costs them nothing. Each draft belongs to one signed-in user, or to a visitor (the
 * registration forms); signing out forgets every draft, signing in every draft of anyone else.
 * Passwords and files are never kept (`omit`).
 */

const PREFIX = 'draft:';

const keyOf = (form: string, owner: number | null) => `${PREFIX}${owner ?? 'visitor'}:${form}`;

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function readDraft(key: string): Record<string, unknown> | null {
  try {
    const stored = storage()?.getItem(key);
    const parsed: unknown = stored ? JSON.parse(stored) : null;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** Forgets the drafts of everyone but `keep` (a user id): every draft when it is undefined. */
export function forgetDrafts(keep?: number): void {
  const store = storage();
  if (!store) return;
  const mine = keep === undefined ? null : `${PREFIX}${keep}:`;
  for (const key of Object.keys(store)) {
    if (key.startsWith(PREFIX) && (mine === null || !key.startsWith(mine))) store.removeItem(key);
  }
}

/** Whether a draft of `form` is kept for `owner`: a form opened only on demand opens itself for it. */
export function hasDraft(form: string, owner: number | null): boolean {
  return readDraft(keyOf(form, owner)) !== null;
}

export interface FormDraft {
  /** The form was filled from a draft when it opened. */
  restored: boolean;
  /** Forget the draft: after the form was sent, or to start over. */
  clear: () => void;
}

/**
 * Keeps `form`'s values as a draft named `name` while the user types, and fills the form from it
 * when it opens again. Only plain values are kept (strings, numbers, booleans); `omit` names fields
 * that must never be written down.
 */
export function useFormDraft<T extends FieldValues, Output extends FieldValues>(
  form: UseFormReturn<T, unknown, Output>,
  name: string,
  { owner, omit = [] }: { owner: number | null; omit?: readonly string[] },
): FormDraft {
  const key = keyOf(name, owner);
  // Read as the form opens, and again if its owner becomes known only then (the session still
  // loading). Its fields register later, so they are matched in the effect.
  const draft = useMemo(() => {
    const kept = Object.entries(readDraft(key) ?? {}).filter(
      ([field, value]) => !omit.includes(field) && isPlain(value),
    );
    return kept.length > 0 ? Object.fromEntries(kept) : null;
    // `omit` is a constant of the caller.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const [cleared, setCleared] = useState(false);

  useEffect(() => {
    // Dirty against the form's own defaults, as if typed.
    if (draft) {
      const current = form.getValues() as Record<string, unknown>;
      const known = Object.fromEntries(Object.entries(draft).filter(([field]) => field in current));
      form.reset({ ...current, ...known } as T, { keepDefaultValues: true });
    }
    const plainOf = (values: unknown) =>
      JSON.stringify(
        Object.fromEntries(
          Object.entries((values ?? {}) as Record<string, unknown>).filter(
            ([field, value]) => !omit.includes(field) && isPlain(value),
          ),
        ),
      );
    const subscription = form.watch((values, { type }) => {
      // Only what the user typed or chose: a value the form sets itself (a default it learns, a
      // reset) is not a draft.
      if (type !== 'change') return;
      try {
        const plain = plainOf(values);
        // A form back at its defaults (nothing typed, or started over) has no draft.
        if (plain === plainOf(form.formState.defaultValues)) storage()?.removeItem(key);
        else storage()?.setItem(key, plain);
      } catch {
        // Storage full or blocked: the form works as before, without a draft.
      }
    });
    return () => subscription.unsubscribe();
    // Once per form and owner: `omit` is a constant of the caller, `draft` follows the owner.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [form, key, draft]);

  const clear = useCallback(() => {
    storage()?.removeItem(key);
    setCleared(true);
  }, [key]);

  const restored = draft !== null && !cleared;
  return { restored, clear };
}

const isPlain = (value: unknown) => ['string', 'number', 'boolean'].includes(typeof value);
