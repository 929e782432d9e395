import { useEffect, type ReactNode } from 'react';
import { Group, Stack, Title } from '@mantine/core';

interface PageProps {
  title: ReactNode;
  /** Plain text for the browser tab when `title` is not a string. */
  documentTitle?: string;
  actions?: ReactNode;
  children?: ReactNode;
}

/** A page of the shell: one h1, optional actions on the right, the browser tab named after it. */
export function Page({ title, documentTitle, actions, children }: PageProps) {
  const tabTitle = documentTitle ?? (typeof title === 'string' ? title : undefined);
  useEffect(() => {
    if (tabTitle) document.title = `${tabTitle} · Bilan`;
  }, [tabTitle]);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="center" wrap="wrap" gap="sm">
        <Title order={1} size="h2">
          {title}
        </Title>
        {actions ? <Group gap="xs">{actions}</Group> : null}
      </Group>
      {children}
    </Stack>
  );
}
