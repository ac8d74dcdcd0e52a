import { Anchor, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { USER_TYPES, type UserType } from '@bloodbank/shared/auth';
import { loginPathFor } from '@/app/paths';

const LOGIN_NAMES: Record<UserType, string> = {
  donor: 'Donor Login',
  patient: 'Patient Login',
  admin: 'Admin Login',
};

/**
 * When the page cannot know the visitor's login (a reset link opened from an e-mail): the donors
 * and patients who use these pages most come first, the staff's login last.
 */
const UNKNOWN_VISITOR_ORDER: readonly UserType[] = ['donor', 'patient', 'admin'];

/** The way back to signing in: the login the visitor came from, else each of the three. */
export function SignInLinks({ userType }: { userType: UserType | null }) {
  if (userType) {
    return (
      <Text size="sm" ta="center">
        <Anchor component={Link} to={loginPathFor(userType)} fw={600}>
          Back to {LOGIN_NAMES[userType]}
        </Anchor>
      </Text>
    );
  }
  return (
    <Group justify="center" gap="md" wrap="wrap">
      {UNKNOWN_VISITOR_ORDER.map((type) => (
        <Anchor key={type} component={Link} to={loginPathFor(type)} fw={600} size="sm">
          {LOGIN_NAMES[type]}
        </Anchor>
      ))}
    </Group>
  );
}

/** `?as=donor` on the reset pages: which login sent the visitor. */
export function userTypeFrom(value: string | null): UserType | null {
  return USER_TYPES.find((type) => type === value) ?? null;
}
