import { useTranslation } from 'react-i18next';
import { Button, Code, Container, Group, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** Router errorElement: any render failure shows this page (spec §2.2). */
export function ErrorPage() {
  const { t } = useTranslation();
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
          {t('Unexpected Application Error!')}
        </Title>
        <Text>{t('Something went wrong while showing this page. Your data is safe; reloading usually helps.')}</Text>
        <Code block>{detail}</Code>
        <Group>
          <Button onClick={() => window.location.reload()}>{t('Reload the page')}</Button>
          <Button component="a" href="/" variant="default">
            {t('Go to the dashboard')}
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
