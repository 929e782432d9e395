import { Anchor, Badge, Button, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate } from '@bilan/domain';
import { msg } from '../lib/i18n';
import { Amount } from './amount';
import { EmptyRow } from './empty-row';

/** One payment of an invoice or a bill, as /invoice/detail and /payable/detail answer it. */
export interface DocumentPayment {
  uuid: string;
  date: string;
  amount: string;
  fee: string;
  writeOff: string;
  writeOffKind: 'discount' | 'difference' | null;
  bankAccount: { number: string; name: string };
  entryId: number | null;
  writeOffEntryId: number | null;
  reversed: { date: string; entryId: number | null } | null;
}

const WRITE_OFF_LABEL = { discount: msg('cash discount'), difference: msg('small difference') } as const;

/**
 * The payments of a document (issue 14 §3): date, bank account, amount, fee, write-off, the entries
 * behind them, and 'Reverse' on each payment not reversed yet (when `onReverse` is given).
 */
export function PaymentsTable({
  payments,
  currency,
  entryHref,
  onReverse,
  reversing,
}: {
  payments: readonly DocumentPayment[];
  currency: string;
  entryHref: (id: number) => string;
  onReverse?: ((payment: DocumentPayment) => void) | undefined;
  reversing?: string | null | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Table striped aria-label={t('Payments')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('Date')}</Table.Th>
          <Table.Th>{t('Bank account')}</Table.Th>
          <Table.Th ta="right">{t('Amount ({{currency}})', { currency })}</Table.Th>
          <Table.Th ta="right">{t('Fee')}</Table.Th>
          <Table.Th ta="right">{t('Written off')}</Table.Th>
          <Table.Th>{t('Entries')}</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {payments.length === 0 ? <EmptyRow columns={7}>{t('No payments yet.')}</EmptyRow> : null}
        {payments.map((payment) => (
          <Table.Tr key={payment.uuid} style={payment.reversed ? { textDecoration: 'line-through', opacity: 0.6 } : undefined}>
            <Table.Td>{formatDate(payment.date)}</Table.Td>
            <Table.Td>
              {payment.bankAccount.number} {payment.bankAccount.name}
            </Table.Td>
            <Table.Td ta="right">
              <Amount value={payment.amount} />
            </Table.Td>
            <Table.Td ta="right">{payment.fee === '0.00' ? '' : <Amount value={payment.fee} />}</Table.Td>
            <Table.Td ta="right">
              {payment.writeOffKind ? (
                <>
                  <Amount value={payment.writeOff} />{' '}
                  <Text span size="xs" c="dimmed">
                    {t(WRITE_OFF_LABEL[payment.writeOffKind])}
                  </Text>
                </>
              ) : null}
            </Table.Td>
            <Table.Td>
              {[payment.entryId, payment.writeOffEntryId, payment.reversed?.entryId ?? null]
                .filter((id): id is number => id !== null)
                .map((id) => (
                  <Anchor key={id} component={Link} to={entryHref(id)} mr="xs" size="sm">
                    #{id}
                  </Anchor>
                ))}
            </Table.Td>
            <Table.Td ta="right">
              {payment.reversed ? (
                <Badge color="gray" variant="light">
                  {t('Reversed {{date}}', { date: formatDate(payment.reversed.date) })}
                </Badge>
              ) : onReverse ? (
                <Button size="xs" variant="subtle" color="red" loading={reversing === payment.uuid} onClick={() => onReverse(payment)}>
                  {t('Reverse')}
                </Button>
              ) : null}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
