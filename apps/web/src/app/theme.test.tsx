import type { ReactElement } from 'react';
import { MantineProvider, NumberInput, PasswordInput, TextInput } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import inputClasses from './inputs.module.css';
import { cssVariablesResolver, theme } from './theme';

function renderWithTheme(element: ReactElement) {
  const user = userEvent.setup();
  render(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env="test">
      {element}
    </MantineProvider>,
  );
  return { user };
}

describe('theme: PasswordInput', () => {
  it('puts the show/hide button in the Tab order, named, and toggles it with Enter or Space', async () => {
    const { user } = renderWithTheme(
      <form>
        <PasswordInput label="Password" />
        <button type="submit">Register</button>
      </form>,
    );
    const password = screen.getByLabelText('Password');

    await user.tab();
    expect(password).toHaveFocus();
    await user.tab();
    const toggle = screen.getByRole('button', { name: 'Show password' });
    expect(toggle).toHaveFocus();
    expect(toggle).toHaveAttribute('aria-pressed', 'false');

    await user.keyboard('{Enter}');
    expect(password).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await user.keyboard(' ');
    expect(password).toHaveAttribute('type', 'password');
    expect(toggle).toHaveAttribute('aria-pressed', 'false');

    await user.tab();
    expect(screen.getByRole('button', { name: 'Register' })).toHaveFocus();
  });

  it('keeps the hint under the field, before the error', () => {
    renderWithTheme(<PasswordInput label="Password" description="At least 6 characters" error="Too short" />);
    const field = screen.getByLabelText('Password');
    const hint = screen.getByText('At least 6 characters');
    const error = screen.getByText('Too short');
    expect(field.compareDocumentPosition(hint) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(hint.compareDocumentPosition(error) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});

describe('theme: every field', () => {
  it('gets the focus style of the theme on text, password and number inputs', () => {
    renderWithTheme(
      <>
        <TextInput label="Name" />
        <PasswordInput label="Password" />
        <NumberInput label="Units" />
      </>,
    );
    expect(inputClasses.input).toBeTruthy();
    // The styled box is the input itself, or for a password the box around the input and its toggle.
    for (const label of ['Name', 'Password', 'Units']) {
      expect(screen.getByLabelText(label).closest(`.${inputClasses.input}`)).not.toBeNull();
    }
  });
});
