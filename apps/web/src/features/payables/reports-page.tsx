import { Alert, Button, Paper, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { errorMessage } from '../../lib/errors';
import { Page } from '../../ui/page';
import { downloadOutflows } from './api';

/** /report (spec §2.5): the outflows report as ExportOutflows.csv, streamed by the server. */
export function ReportsPage() {
  const download = useMutation({ mutationFn: downloadOutflows });
  return (
    <Page title="Outflows Report Page">
      <Paper withBorder p="md" radius="md">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">
            Every bill and expense with its date, amount, supplier, status and payment group status, as a CSV file for spreadsheets
            (columns: id, date, amount, company, isExpense, status, transactionGroupStatus).
          </Text>
          <Button leftSection={<IconDownload size={16} />} loading={download.isPending} onClick={() => download.mutate()}>
            Download CSV
          </Button>
          {download.isError ? (
            <Alert color="red" variant="light" role="alert">
              Could not download the report: {errorMessage(download.error)}
            </Alert>
          ) : null}
        </Stack>
      </Paper>
    </Page>
  );
}
