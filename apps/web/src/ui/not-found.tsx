import { useTranslation } from 'react-i18next';
import { Button, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../config/paths';
import { Page } from './page';

export function NotFound() {
  const { t } = useTranslation();
  return (
    <Page title={t('Page Not Found')}>
      <Stack gap="sm" align="flex-start">
        <Text>{t('There is no page at this address. Check the link, or go back to the dashboard.')}</Text>
        <Button component={Link} to={paths.home.getHref()} variant="light">
          {t('Go to the dashboard')}
        </Button>
      </Stack>
    </Page>
  );
}
