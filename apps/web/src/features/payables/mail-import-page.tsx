import { useState } from 'react';
import { Alert, Anchor, Button, Card, FileInput, Group, Progress, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconFileTypeCsv } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ApiError } from '../../lib/api';
import { errorMessage } from '../../lib/errors';
import { Page } from '../../ui/page';
import { importReceipts, payablesKey, type ReceiptImportResult, type ReceiptImportRowError } from './api';
import { Trans, useTranslation } from 'react-i18next';
import { msg } from '../../lib/i18n';

type Status =
  | { step: 'idle' }
  | { step: 'uploading'; fraction: number }
  | { step: 'done'; result: ReceiptImportResult }
  | { step: 'failed'; error: unknown };

const COLUMNS = 'date, supplier, amount, vat, currency, category';

/** The `rows` of a refused import (400 `{ error, rows: [{ row, field, message }] }`, docs/api.md). */
function rowErrors(error: unknown): ReceiptImportRowError[] {
  if (!(error instanceof ApiError) || typeof error.body !== 'object' || error.body === null) return [];
  const rows = (error.body as { rows?: unknown }).rows;
  return Array.isArray(rows) ? (rows as ReceiptImportRowError[]) : [];
}

/**
 * /mail/import ("Import Mail/Dext"): a Dext CSV export of receipts → pending bills or expenses,
 * all or nothing; a refused file lists every bad row.
 */
export function MailImportPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [as, setAs] = useState<'bill' | 'expense'>('bill');
  const [status, setStatus] = useState<Status>({ step: 'idle' });
  const busy = status.step === 'uploading';

  const upload = async () => {
    if (!file) return;
    setStatus({ step: 'uploading', fraction: 0 });
    try {
      const result = await importReceipts(await file.text(), as, (fraction) => setStatus({ step: 'uploading', fraction }));
      setStatus({ step: 'done', result });
      await queryClient.invalidateQueries({ queryKey: payablesKey });
    } catch (error) {
      setStatus({ step: 'failed', error });
    }
  };
  const rows = status.step === 'failed' ? rowErrors(status.error) : [];

  return (
    <Page title={t('Import Mail/Dext')}>
      <Card withBorder radius="md" padding="md" maw={900}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            <Trans
              t={t}
              i18nKey={msg(
                "A CSV export of receipts from Dext (or any tool) becomes pending bills or staff expenses. Columns: <code>{{columns}}</code> (optional: exchange rate, description, type). Dext's names such as Receipt Date, Supplier Name, Total, Tax Amount and Currency Code are recognised; other columns are ignored. Amounts include VAT; the category is a ledger account number or name. Suppliers are matched by name or created.",
              )}
              values={{ columns: COLUMNS }}
              components={{ code: <code /> }}
            />
          </Text>
          <SegmentedControl
            value={as}
            onChange={(value) => setAs(value as 'bill' | 'expense')}
            data={[
              { value: 'bill', label: t('Supplier bills') },
              { value: 'expense', label: t('Expenses (staff)') },
            ]}
            w={340}
            disabled={busy}
          />
          <FileInput
            label={t('Receipts CSV')}
            placeholder={t('Choose a CSV file')}
            accept=".csv,text/csv"
            clearable
            disabled={busy}
            leftSection={<IconFileTypeCsv size={16} aria-hidden />}
            value={file}
            onChange={(chosen) => {
              setFile(chosen);
              setStatus({ step: 'idle' });
            }}
          />
          {status.step === 'uploading' ? <Progress value={status.fraction * 100} aria-label={t('Upload progress')} /> : null}
          {status.step === 'done' ? (
            <Alert color="green" variant="light" icon={<IconCircleCheck size={18} />} title={t('Import finished')} role="status">
              {status.result.companiesCreated
                ? t('{{bills}} bills and {{expenses}} expenses created, {{suppliers}} new suppliers.', {
                    bills: status.result.bills,
                    expenses: status.result.expenses,
                    suppliers: status.result.companiesCreated,
                  })
                : t('{{bills}} bills and {{expenses}} expenses created.', { bills: status.result.bills, expenses: status.result.expenses })}{' '}
              <Anchor component={Link} to="/bill">
                {t('Open the bills')}
              </Anchor>
            </Alert>
          ) : null}
          {status.step === 'failed' ? (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title={t('Nothing was imported')} role="alert">
              {errorMessage(status.error)}
            </Alert>
          ) : null}
          {rows.length ? (
            <Table withTableBorder striped fz="sm" aria-label={t('Row errors')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={80}>{t('Row')}</Table.Th>
                  <Table.Th w={160}>{t('Column')}</Table.Th>
                  <Table.Th>{t('Problem')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((error, index) => (
                  <Table.Tr key={index}>
                    <Table.Td>{error.row}</Table.Td>
                    <Table.Td>{error.field}</Table.Td>
                    <Table.Td>{error.message}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : null}
          <Group justify="flex-end">
            <Button onClick={() => void upload()} disabled={!file || busy || status.step === 'done'} loading={busy}>
              {t('Import')}
            </Button>
          </Group>
        </Stack>
      </Card>
    </Page>
  );
}
