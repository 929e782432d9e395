import { useEffect } from 'react';
import { Box, Center, Group, Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';

/** The public pages: one centred card under the product name. */
export function LoginLayout() {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = t('Login · Bilan');
  }, [t]);
  return (
    <Box bg="gray.0" mih="100vh" py={48} px="md">
      <Center>
        <Box w="100%" maw={440}>
          <Group justify="center" mb="lg" gap={8}>
            <img src="/favicon.svg" alt="" width={28} height={28} />
            <Text fw={700} size="xl">
              Bilan
            </Text>
          </Group>
          <Paper withBorder shadow="xs" radius="md" p="xl">
            <Outlet />
          </Paper>
          <Text c="dimmed" size="xs" ta="center" mt="md">
            {t('Accounting and invoicing for Swiss companies')}
          </Text>
        </Box>
      </Center>
    </Box>
  );
}
