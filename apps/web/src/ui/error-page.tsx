import { Button, Code, Container, Group, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** Router errorElement: any render failure shows this page (spec §2.2). */
export function ErrorPage() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <Container size="sm" py="xl">
      <Stack gap="md">
        <Title order={1} size="h2">
          Unexpected Application Error!
        </Title>
        <Text>Something went wrong while showing this page. Your data is safe; reloading usually helps.</Text>
        <Code block>{detail}</Code>
        <Group>
          <Button onClick={() => window.location.reload()}>Reload the page</Button>
          <Button component="a" href="/" variant="default">
            Go to the dashboard
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
