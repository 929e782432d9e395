import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { IconChartBar, IconDownload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { errorMessage } from '../../lib/errors';
import { Page } from '../../ui/page';
import { downloadOutflows } from './api';
import { useTranslation } from 'react-i18next';

/**
 * /report (spec §2.5): the outflows report as ExportOutflows.csv, streamed by the server, and the
 * way to the analyses of a year (/report/analytics, issue 12 §4).
 */
export function ReportsPage() {
  const { t } = useTranslation();
  const download = useMutation({ mutationFn: downloadOutflows });
  return (
    <Page title={t('Outflows Report Page')}>
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">
            {t(
              'Every bill and expense with its date, amount, supplier, status and payment group status, as a CSV file for spreadsheets (columns: id, date, amount, company, isExpense, status, transactionGroupStatus).',
            )}
          </Text>
          <Button leftSection={<IconDownload size={16} />} loading={download.isPending} onClick={() => download.mutate()}>
            {t('Download CSV')}
          </Button>
          {download.isError ? (
            <Alert color="red" variant="light" role="alert">
              {t('Could not download the report: {{error}}', { error: errorMessage(download.error) })}
            </Alert>
          ) : null}
        </Stack>
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm" align="flex-start">
          <Title order={2} size="h4">
            {t('Analytics')}
          </Title>
          <Text size="sm">
            {t(
              "Revenue by customer, expenses by supplier, and revenue and expenses by ledger account for a year, ranked by amount with each one's share of the total, as tables and CSV files.",
            )}
          </Text>
          <Button component={Link} to={paths.reportAnalytics.getHref()} variant="default" leftSection={<IconChartBar size={16} />}>
            {t('Open analytics')}
          </Button>
        </Stack>
      </Paper>
    </Page>
  );
}
