import { Button, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../config/paths';
import { Page } from './page';

export function NotFound() {
  return (
    <Page title="Page Not Found">
      <Stack gap="sm" align="flex-start">
        <Text>There is no page at this address. Check the link, or go back to the dashboard.</Text>
        <Button component={Link} to={paths.home.getHref()} variant="light">
          Go to the dashboard
        </Button>
      </Stack>
    </Page>
  );
}
