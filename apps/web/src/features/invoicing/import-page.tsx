import { useState } from 'react';
import { Alert, Anchor, Button, Code, FileButton, Group, Stack, Table, Text, Textarea } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Papa from 'papaparse';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api';
import { errorMessage } from '../../lib/errors';
import { Page } from '../../ui/page';
import { importInvoices, invoiceKey } from './api';
import { Trans, useTranslation } from 'react-i18next';
import { msg } from '../../lib/i18n';

const COLUMNS = [
  'invoice',
  'company',
  'addressId',
  'paymentProfileId',
  'dateInvoice',
  'dateDue',
  'vat',
  'currency',
  'fxRate',
  'description',
  'name',
  'amount',
  'price',
  'discount',
  'discountAbs',
  'account',
];
const NUMERIC = new Set(['addressId', 'paymentProfileId']);

/** CSV text (header row with the column names) to import rows; empty cells are left out. */
export function parseInvoiceCsv(text: string): Record<string, unknown>[] {
  const parsed = Papa.parse<Record<string, string>>(text.trim(), { header: true, skipEmptyLines: true });
  return parsed.data.map((row) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(row)) {
      const name = key.trim();
      const cell = (value ?? '').trim();
      if (cell === '') continue;
      out[name] = NUMERIC.has(name) && /^\d+$/.test(cell) ? Number(cell) : cell;
    }
    return out;
  });
}

interface RowError {
  row: number;
  field: string;
  message: string;
}

/** /invoice/import: a CSV of invoice lines, all or nothing, with a per-row error report. */
export function InvoiceImportPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const mutation = useMutation({
    mutationFn: () => importInvoices(parseInvoiceCsv(text)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: invoiceKey }),
  });
  const rowErrors: RowError[] =
    mutation.error instanceof ApiError && mutation.error.body && typeof mutation.error.body === 'object' && 'rows' in mutation.error.body
      ? ((mutation.error.body as { rows: RowError[] }).rows ?? [])
      : [];
  const fields =
    mutation.error instanceof ApiError && mutation.error.body && typeof mutation.error.body === 'object' && 'fields' in mutation.error.body
      ? Object.entries((mutation.error.body as { fields?: Record<string, string> }).fields ?? {}).map(([path, message]) => {
          const match = /^data\.(\d+)\.(.+)$/.exec(path);
          return match ? { row: Number(match[1]) + 1, field: match[2]!, message } : { row: 0, field: path, message };
        })
      : [];
  const report = rowErrors.length ? rowErrors : fields;

  return (
    <Page title={t('Invoice Import')}>
      <Text size="sm">
        <Trans
          t={t}
          i18nKey={msg(
            "One row per invoice line; rows with the same <code>invoice</code> key form one invoice. Columns: <code>{{columns}}</code>. The customer (<code>company</code>) is its exact name, its UID (CHE-123.456.789) or its uuid. Address and payment profile default to the customer's first address and your first IBAN/QR bill profile; <code>vat</code> is the line's rate as a fraction (0.081, 0.026, 0.038, 0), so one invoice may mix rates; <code>currency</code> CHF or EUR (EUR with <code>fxRate</code>, CHF per EUR); <code>account</code> a revenue account number (default by VAT rate); the due date defaults to 30 days. Every row is checked and nothing is imported when any row is wrong.",
          )}
          values={{ columns: COLUMNS.join(', ') }}
          components={{ code: <Code /> }}
        />
      </Text>
      <Group>
        <FileButton accept=".csv,text/csv" onChange={(file) => void file?.text().then(setText)}>
          {(props) => (
            <Button variant="default" leftSection={<IconUpload size={16} />} {...props}>
              {t('Choose CSV file')}
            </Button>
          )}
        </FileButton>
      </Group>
      <Textarea label="CSV" autosize minRows={6} maxRows={16} value={text} onChange={(e) => setText(e.currentTarget.value)} styles={{ input: { fontFamily: 'monospace' } }} />
      <Group justify="flex-end">
        <Button onClick={() => mutation.mutate()} loading={mutation.isPending} disabled={text.trim() === ''}>
          {t('Import')}
        </Button>
      </Group>
      {mutation.isSuccess ? (
        <Alert color="green" variant="light">
          {t('{{created}} invoices imported.', { created: mutation.data.created })} <Anchor component={Link} to={paths.invoices.getHref()}>{t('Open the invoices')}</Anchor>
        </Alert>
      ) : null}
      {mutation.isError ? (
        <Stack gap="xs">
          <Alert color="red" variant="light" role="alert">
            {report.length ? errorMessage(mutation.error) : t('Nothing was imported: {{error}}', { error: errorMessage(mutation.error) })}
          </Alert>
          {report.length ? (
            <Table withTableBorder striped aria-label={t('Errors per row')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={80}>{t('Row')}</Table.Th>
                  <Table.Th w={160}>{t('Field')}</Table.Th>
                  <Table.Th>{t('Problem')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {report.map((error) => (
                  <Table.Tr key={`${error.row}-${error.field}`} data-testid="import-error">
                    <Table.Td>{error.row || '-'}</Table.Td>
                    <Table.Td>{error.field}</Table.Td>
                    <Table.Td>{error.message}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : null}
        </Stack>
      ) : null}
    </Page>
  );
}
