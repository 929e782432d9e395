import { Alert, Button, Container, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { formatDate, vatRateToPercent } from '@bilan/domain';
import { api, withQuery } from '../../lib/api';
import { errorMessage } from '../../lib/errors';
import { Amount } from '../../ui/amount';
import { CenteredLoader } from '../../ui/centered-loader';
import { useTranslation } from 'react-i18next';

/** Public share link page: the invoice and its PDF, without sign-in (spec §3 "Public share link"). */
export function PublicInvoicePage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const invoice = useQuery({
    queryKey: ['public-invoice', token],
    queryFn: ({ signal }) => api.get('/api/public/invoice', { query: { token }, signal }),
    retry: false,
  });
  return (
    <Container size="md" py="xl">
      {invoice.isPending ? <CenteredLoader /> : null}
      {invoice.isError ? (
        <Alert color="red" variant="light" title={t('This link does not work')}>
          {errorMessage(invoice.error)}. {t('The link may have been revoked.')}
        </Alert>
      ) : null}
      {invoice.data ? (
        <Stack>
          <Title order={1} size="h2">
            {t('Invoice {{number}}', { number: invoice.data.refNumber })}
          </Title>
          <Paper withBorder p="md">
            <Text>{t('From {{name}}', { name: invoice.data.creditor.name })}</Text>
            <Text>{t('To {{name}}', { name: invoice.data.debtor.name })}</Text>
            <Text size="sm">{t('Date {{date}}', { date: formatDate(invoice.data.dateInvoice) })}{invoice.data.dateDue ? ` · ${t('due {{date}}', { date: formatDate(invoice.data.dateDue) })}` : ''}</Text>
            {invoice.data.description ? <Text size="sm">{invoice.data.description}</Text> : null}
          </Paper>
          <Table withTableBorder striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Item')}</Table.Th>
                <Table.Th className="num">{t('Quantity')}</Table.Th>
                <Table.Th className="num">{t('Price')}</Table.Th>
                <Table.Th className="num">{t('Total')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invoice.data.items.map((item, index) => (
                <Table.Tr key={index}>
                  <Table.Td>{item.name}</Table.Td>
                  <Table.Td className="num">{item.amount}</Table.Td>
                  <Table.Td className="num"><Amount value={item.price} /></Table.Td>
                  <Table.Td className="num"><Amount value={item.total} /></Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Td colSpan={3}>{t('Subtotal')}</Table.Td>
                <Table.Td className="num"><Amount value={invoice.data.totals.net} /></Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Td colSpan={3}>{t('VAT {{rate}} %', { rate: vatRateToPercent(invoice.data.vat) })}</Table.Td>
                <Table.Td className="num"><Amount value={invoice.data.totals.vat} /></Table.Td>
              </Table.Tr>
              {invoice.data.totals.rounding !== '0.00' ? (
                <Table.Tr>
                  <Table.Td colSpan={3}>{t('Rounding to 0.05')}</Table.Td>
                  <Table.Td className="num"><Amount value={invoice.data.totals.rounding} /></Table.Td>
                </Table.Tr>
              ) : null}
              <Table.Tr className="totals">
                <Table.Td colSpan={3}>{t('Total {{currency}}', { currency: invoice.data.currency })}</Table.Td>
                <Table.Td className="num"><Amount value={invoice.data.totals.total} fw={700} /></Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          <Button component="a" href={withQuery('/api/public/invoice/pdf', { token })} target="_blank" leftSection={<IconDownload size={16} />} w="fit-content">
            {t('Open PDF')}
          </Button>
        </Stack>
      ) : null}
    </Container>
  );
}
