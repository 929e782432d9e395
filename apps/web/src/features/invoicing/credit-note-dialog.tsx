import { useState } from 'react';
import { Anchor, Button, Checkbox, Group, Modal, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatDate, toFixedAmount, toMoney } from '@bilan/domain';
import { today } from '../../lib/dates';
import { serverFieldErrors } from '../../lib/errors';
import { saveBlob } from '../../lib/save-file';
import { useDocumentLanguage } from '../../lib/document-language';
import { useSingleFlight } from '../../lib/single-flight';
import { Amount } from '../../ui/amount';
import { DateField } from '../../ui/date-field';
import { NumericInput } from '../../ui/numeric-input';
import { Pager } from '../../ui/pager';
import { CREDIT_NOTE_PAGE_SIZE, creditNotesQuery, fetchCreditNotePdf, insertCreditNote, invoiceDetailQuery, invoiceKey, type Invoice } from './api';
import { WriteError } from './write-error';
import { Trans, useTranslation } from 'react-i18next';
import { msg } from '../../lib/i18n';

/**
 * 'Credit note' of a sent invoice (issue 15 §2, decision 027): the whole rest, or per line a
 * quantity or an amount to credit; the server posts the reversal of revenue and VAT per rate and
 * lowers the open amount. The detail's one-time `creditToken` makes a double click create one.
 */
function CreditNoteForm({ invoice, onClose }: { invoice: Invoice; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [token] = useState(() => invoice.creditToken ?? crypto.randomUUID());
  const [full, setFull] = useState(false);
  const [date, setDate] = useState<string | null>(today());
  const [reason, setReason] = useState('');
  const [quantities, setQuantities] = useState<Record<number, string>>({});
  const [amounts, setAmounts] = useState<Record<number, string>>({});
  const lines = invoice.items
    .filter((item) => quantities[item.id] || amounts[item.id])
    .map((item) => (quantities[item.id] ? { itemId: item.id, quantity: quantities[item.id]! } : { itemId: item.id, amount: amounts[item.id]! }));
  const mutation = useMutation({
    mutationFn: () => insertCreditNote({ uuid: invoice.uuid, token, date: date!, ...(reason ? { reason } : {}), ...(full ? { full: true } : { lines }) }),
    onSuccess: async (note) => {
      await queryClient.invalidateQueries({ queryKey: invoiceKey });
      await queryClient.invalidateQueries({ queryKey: ['accounting'] });
      await queryClient.invalidateQueries({ queryKey: invoiceDetailQuery(invoice.uuid).queryKey });
      notifications.show({ color: 'green', message: t('Credit note {{number}} of {{total}} {{currency}} created', { number: note.number, total: note.totals.total, currency: note.currency }) });
      onClose();
    },
  });
  const submit = useSingleFlight(mutation.mutateAsync);
  const fields = serverFieldErrors(mutation.error);
  // Field errors of a line name its index in the lines sent (`lines.0.quantity`): map them back to the item.
  const lineError = (itemId: number, key: 'quantity' | 'amount' | 'itemId') => {
    const at = lines.findIndex((line) => line.itemId === itemId);
    return at < 0 ? undefined : fields[`lines.${at}.${key}`];
  };
  const shown = Object.keys(fields).some((key) => key.startsWith('lines.') || key === 'date');
  const quantityError = (itemId: number) => lineError(itemId, 'quantity') ?? lineError(itemId, 'itemId');
  const amountError = (itemId: number) => lineError(itemId, 'amount');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack>
        <Text size="sm">
          <Trans
            t={t}
            i18nKey={msg('Open: <open/> {{currency}}. A credit note reduces revenue and output VAT of the credited lines and the open amount; it never pays money back.')}
            values={{ currency: invoice.currency }}
            components={{ open: <Amount value={invoice.openAmount ?? invoice.totals.total} fw={600} /> }}
          />
        </Text>
        <DateField label={t('Credit note date')} required value={date} onChange={setDate} error={fields.date} />
        <TextInput label={t('Reason')} value={reason} onChange={(e) => setReason(e.currentTarget.value)} error={fields.reason} />
        <Checkbox label={t('Credit everything still open on the lines')} checked={full} onChange={(e) => setFull(e.currentTarget.checked)} />
        {full ? null : (
          <Table withTableBorder aria-label={t('Lines to credit')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Item')}</Table.Th>
                <Table.Th className="num">{t('Invoiced')}</Table.Th>
                <Table.Th className="num">{t('Total {{currency}}', { currency: invoice.currency })}</Table.Th>
                <Table.Th>{t('Quantity to credit')}</Table.Th>
                <Table.Th>{t('or amount (net)')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invoice.items.map((item) => (
                <Table.Tr key={item.id}>
                  <Table.Td>{item.name}</Table.Td>
                  <Table.Td className="num">{item.amount}</Table.Td>
                  <Table.Td className="num">
                    <Amount value={item.total} />
                  </Table.Td>
                  <Table.Td>
                    <NumericInput
                      aria-label={t('Quantity to credit of {{item}}', { item: item.name })}
                      allowDecimal
                      value={quantities[item.id] ?? ''}
                      onChange={(value) => {
                        mutation.reset();
                        setQuantities((q) => ({ ...q, [item.id]: value }));
                      }}
                      disabled={Boolean(amounts[item.id])}
                      error={quantityError(item.id)}
                    />
                  </Table.Td>
                  <Table.Td>
                    <NumericInput
                      aria-label={t('Amount to credit of {{item}}', { item: item.name })}
                      allowDecimal
                      value={amounts[item.id] ?? ''}
                      onChange={(value) => {
                        mutation.reset();
                        setAmounts((a) => ({ ...a, [item.id]: value }));
                      }}
                      disabled={Boolean(quantities[item.id])}
                      error={amountError(item.id)}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {fields.lines || fields.full ? (
          <Text c="red" size="sm" role="alert">
            {fields.lines ?? fields.full}
          </Text>
        ) : null}
        {mutation.isError && !shown && !fields.lines && !fields.full ? <WriteError error={mutation.error} what={t('Could not create the credit note')} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button type="submit" color="orange" loading={mutation.isPending} disabled={!date || (!full && lines.length === 0)}>
            {t('Create credit note')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function CreditNoteDialog({ invoice, opened, onClose }: { invoice: Invoice; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('Credit note for {{number}}', { number: invoice.refNumber })} size="xl">
      {opened ? <CreditNoteForm invoice={invoice} onClose={onClose} /> : null}
    </Modal>
  );
}

/**
 * The invoice's credit notes with their reasons, totals and PDFs (invoice detail), a page
 * (CREDIT_NOTE_PAGE_SIZE) at a time from `credit-note/list`; the credited sum is of all of them.
 */
export function CreditNotesList({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const notes = useQuery({ ...creditNotesQuery(invoice.uuid, page), enabled: (invoice.creditNotes?.length ?? 0) > 0 });
  const [error, setError] = useState<unknown>(null);
  const [lang] = useDocumentLanguage(invoice.company.uuid);
  if (!invoice.creditNotes || invoice.creditNotes.length === 0) return null;
  const total = invoice.creditNotes.reduce((sum, note) => sum.plus(toMoney(note.total)), toMoney(0));
  // Until the page arrives, the detail's own notes of that page (without their reasons).
  const rows =
    notes.data?.data.map((note) => ({ uuid: note.uuid, number: note.number, date: note.date, reason: note.reason, total: note.totals.total })) ??
    invoice.creditNotes
      .slice((page - 1) * CREDIT_NOTE_PAGE_SIZE, page * CREDIT_NOTE_PAGE_SIZE)
      .map((note) => ({ uuid: note.uuid, number: note.number, date: note.date, reason: '', total: note.total }));
  const count = notes.data?.total ?? invoice.creditNotes.length;
  const pdf = async (uuid: string, number: string) => {
    setError(null);
    try {
      saveBlob(await fetchCreditNotePdf(uuid, lang), `${number}.pdf`);
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <Paper withBorder p="md">
      <Text fw={600} mb="xs">
        {t('Credit notes')}
      </Text>
      {error ? <WriteError error={error} what={t('Could not make the PDF')} /> : null}
      <Table aria-label={t('Credit notes')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Number')}</Table.Th>
            <Table.Th>{t('Date')}</Table.Th>
            <Table.Th>{t('Reason')}</Table.Th>
            <Table.Th className="num">{t('Total {{currency}}', { currency: invoice.currency })}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((note) => (
            <Table.Tr key={note.uuid}>
              <Table.Td>{note.number}</Table.Td>
              <Table.Td>{formatDate(note.date)}</Table.Td>
              <Table.Td>{note.reason}</Table.Td>
              <Table.Td className="num">
                <Amount value={note.total} />
              </Table.Td>
              <Table.Td>
                <Anchor component="button" size="sm" onClick={() => void pdf(note.uuid, note.number)}>
                  PDF
                </Anchor>
              </Table.Td>
            </Table.Tr>
          ))}
          <Table.Tr>
            <Table.Td colSpan={3} fw={600}>
              {t('Credited')}
            </Table.Td>
            <Table.Td className="num">
              <Amount value={toFixedAmount(total)} fw={600} />
            </Table.Td>
            <Table.Td />
          </Table.Tr>
        </Table.Tbody>
      </Table>
      {count > CREDIT_NOTE_PAGE_SIZE ? <Pager page={page} pageSize={CREDIT_NOTE_PAGE_SIZE} total={count} capped={notes.data?.totalCapped} onChange={setPage} /> : null}
    </Paper>
  );
}
