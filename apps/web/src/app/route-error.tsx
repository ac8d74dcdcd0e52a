import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { paths } from './paths';

/**
 * Shown when a screen fails to render or its code cannot be downloaded (most often a new version
 * was deployed while the tab was open: reloading fetches the new files).
 */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : 'This page could not be loaded. Please reload the page and try again.';
  return (
    <Container size="sm" py={64}>
      <Stack align="center" ta="center" gap="md" role="alert">
        <Title order={1} size="h2">
          Something went wrong
        </Title>
        <Text c="dimmed">{message}</Text>
        <Stack gap="xs" align="center">
          <Button onClick={() => window.location.reload()}>Reload the page</Button>
          <Button component={Link} to={paths.home} variant="subtle" reloadDocument>
            Go to the home page
          </Button>
        </Stack>
      </Stack>
    </Container>
  );
}
