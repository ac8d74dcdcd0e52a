import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { MESSAGES } from '@bloodbank/shared/constants';
import { errorMessage } from '@/lib/api-client';

/** Spec section 8: the server's detail, else "Registration failed. Please try again." */
export function RegistrationError({ error }: { error: unknown }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
      {errorMessage(error, MESSAGES.registrationFailed)}
    </Alert>
  );
}

export function RegistrationSubmit({ busy, loginPath }: { busy: boolean; loginPath: string }) {
  return (
    <Stack gap="sm">
      <Button type="submit" size="md" fullWidth disabled={busy}>
        {busy ? 'Registering...' : 'Register'}
      </Button>
      <Text size="sm" ta="center">
        Already have an account?{' '}
        <Anchor component={Link} to={loginPath} fw={600}>
          Login here
        </Anchor>
      </Text>
    </Stack>
  );
}
