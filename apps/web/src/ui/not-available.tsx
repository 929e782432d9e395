import { Anchor, Paper, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../config/paths';
import { Page } from './page';

/** A route of the contract whose screen is built by a later issue: calm, never 'Page Not Found'. */
export function NotAvailable({ label }: { label: string }) {
  return (
    <Page title={label}>
      <Paper withBorder p="lg" radius="md">
        <Text>This page is not available yet. It comes with a later version of Bilan.</Text>
        <Text c="dimmed" size="sm" mt="xs">
          In the meantime, the <Anchor component={Link} to={paths.home.getHref()} inherit>
            dashboard
          </Anchor> and the accounting pages are ready to use.
        </Text>
      </Paper>
    </Page>
  );
}
