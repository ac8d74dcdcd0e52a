import { PasswordInput } from '@mantine/core';
import type { ComponentProps } from 'react';

/**
 * Mantine's PasswordInput links its error (aria-describedby) but, unlike its other inputs, never
 * sets aria-invalid on the input; a screen reader did not say the password was refused.
 */
export function PasswordField(props: ComponentProps<typeof PasswordInput>) {
  return <PasswordInput aria-invalid={Boolean(props.error)} {...props} />;
}
