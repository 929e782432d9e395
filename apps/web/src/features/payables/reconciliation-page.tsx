import { useState } from 'react';
import { Alert, Button, Checkbox, FileButton, Group, Select, Stack, Table, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatAmount, formatDate } from '@bilan/domain';
import { Amount } from '../../ui/amount';
import { LockNotice } from '../../ui/lock-notice';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { useCan } from '../../lib/session';
import { DateField } from '../../ui/date-field';
import { serverFieldErrors } from '../../lib/errors';
import { allAccountsQuery, bankSettingsQuery, bookBankTransaction, updateChargesAccount, importStatement, matchBankTransaction, payablesKey, reconcileQuery, type MatchSuggestion, type UnmatchedTransaction } from './api';
import { DoneSections, IgnoreModal, MatchPostingsModal, SummaryPanel } from './reconciliation-sections';
import { useTranslation } from 'react-i18next';

const SEPARATOR = ' · ';

/**
 * /accounting/account/{id}/reconciliation: the bank's closing balance against the ledger, the
 * imported bank transactions nobody matched yet with why the automatic match left them, each to
 * match by hand to an open invoice or bill of the same amount, to postings already in the books
 * (one or several lines against one or several postings), to book against a chosen account, or to
 * ignore with a reason; the reconciled lines to unmatch, the ignored ones to take back, and the
 * imported files to delete while none of their lines is reconciled (issue 14 §1, §2).
 * Viewers see it all but get no controls.
 */
export function ReconciliationPage({ accountId }: { accountId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [date, setDate] = useState<string | null>(null);
  const overview = useQuery({ ...reconcileQuery(accountId, date ?? undefined), placeholderData: (previous) => previous });
  const [checked, setChecked] = useState<number[]>([]);
  const [matching, setMatching] = useState<UnmatchedTransaction[] | null>(null);
  const [ignoring, setIgnoring] = useState<UnmatchedTransaction | null>(null);
  const accounts = useQuery(allAccountsQuery());
  const [counter, setCounter] = useState<Record<number, string | null>>({});
  const [chosenDocument, setChosenDocument] = useState<Record<number, string | null>>({});
  const canWrite = useCan('write');
  const canAdmin = useCan('admin');
  const settings = useQuery({ ...bankSettingsQuery(), enabled: canWrite });
  const refresh = () => {
    setChecked([]);
    return queryClient.invalidateQueries({ queryKey: payablesKey });
  };
  const upload = useMutation({ mutationFn: async (file: File) => importStatement(await file.text(), accountId), onSuccess: refresh });
  const book = useMutation({
    mutationFn: ({ id, counterId }: { id: number; counterId: number }) => bookBankTransaction(accountId, id, counterId),
    onSuccess: refresh,
  });
  const match = useMutation({
    mutationFn: ({ id, suggestion }: { id: number; suggestion: MatchSuggestion }) => matchBankTransaction(id, suggestion),
    onSuccess: refresh,
  });
  const setCharges = useMutation({ mutationFn: updateChargesAccount, onSuccess: refresh });
  const options = (accounts.data?.data ?? []).filter((a) => a.id !== accountId).map((a) => ({ value: String(a.id), label: `${a.number} ${a.name}` }));
  const o = overview.data;

  return (
    <Page title={o ? t('Reconciliation {{number}} {{name}}', { number: o.account.number, name: o.account.name }) : t('Account Reconciliation')}>
      {overview.isError ? <ErrorAlert what={t('Could not load the reconciliation')} error={overview.error} onRetry={() => void overview.refetch()} /> : null}
      {!o && !overview.isError ? <TableSkeleton /> : null}
      {o ? (
        <>
          <LockNotice />
          <Group align="flex-end">
            <DateField label={t('Summary at')} value={date ?? o.summary.date} onChange={setDate} w={180} />
          </Group>
          <SummaryPanel summary={o.summary} />
          {canWrite ? (
            <Group>
              <FileButton onChange={(file) => file && upload.mutate(file)} accept=".xml,application/xml,text/xml">
                {(props) => (
                  <Button {...props} variant="default" leftSection={<IconUpload size={16} />} loading={upload.isPending}>
                    {t('Import statement (camt.053 / camt.054)')}
                  </Button>
                )}
              </FileButton>
            </Group>
          ) : null}
          {settings.data ? (
            <Group gap="xs">
              <Select
                label={t('Bank charges are booked to')}
                aria-label={t('Bank charges account')}
                searchable
                data={(accounts.data?.data ?? []).map((a) => ({ value: String(a.id), label: `${a.number} ${a.name}` }))}
                value={String(settings.data.chargesAccount.id)}
                onChange={(value) => value && setCharges.mutate(Number(value))}
                disabled={!canAdmin || setCharges.isPending}
                size="xs"
                w={310}
              />
            </Group>
          ) : null}
          {setCharges.isError ? <ErrorAlert what={t('Could not change the charges account')} error={setCharges.error} /> : null}
          {upload.isError ? (
            // The server's sentence about the file ('This is not a camt.053 file: found <pain.001> at line 2').
            <ErrorAlert what={t('Could not import the file')} error={serverFieldErrors(upload.error).file ? new Error(serverFieldErrors(upload.error).file) : upload.error} />
          ) : null}
          {upload.data ? (
            <Alert color="green" variant="light" role="status">
              {upload.data.duplicateFile
                ? t('This file was imported before: nothing new.')
                : upload.data.known
                  ? t('{{imported}} bank transactions imported, {{matched}} matched ({{known}} found in the books, {{booked}} booked), {{duplicates}} imported before.', {
                      imported: upload.data.imported ?? 0,
                      matched: upload.data.matched ?? 0,
                      known: upload.data.known,
                      booked: upload.data.booked ?? 0,
                      duplicates: upload.data.duplicates ?? 0,
                    })
                  : t('{{imported}} bank transactions imported, {{matched}} matched, {{duplicates}} imported before.', {
                      imported: upload.data.imported ?? 0,
                      matched: upload.data.matched ?? 0,
                      duplicates: upload.data.duplicates ?? 0,
                    })}
            </Alert>
          ) : null}
          {book.isError ? <ErrorAlert what={t('Could not book the transaction')} error={book.error} /> : null}
          {match.isError ? <ErrorAlert what={t('Could not match the transaction')} error={match.error} /> : null}
          <Text fw={600}>{t('Not matched yet')}</Text>
          {o.unmatched.length === 0 ? (
            <Text c="dimmed">{t('Every imported bank transaction is matched or booked.')}</Text>
          ) : (
            <Table withTableBorder striped>
              <Table.Thead>
                <Table.Tr>
                  {canWrite ? <Table.Th w={40} /> : null}
                  <Table.Th w={110}>{t('Date')}</Table.Th>
                  <Table.Th>{t('Counterparty / text')}</Table.Th>
                  <Table.Th className="num" w={130}>
                    {t('In')}
                  </Table.Th>
                  <Table.Th className="num" w={130}>
                    {t('Out')}
                  </Table.Th>
                  {canWrite ? <Table.Th w={400}>{t('Match to an open document, or book against an account')}</Table.Th> : null}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {o.unmatched.map((tx) => {
                  const suggestions = tx.suggestions.map((suggestion) => ({
                    value: `${suggestion.kind}:${suggestion.uuid}`,
                    // A document in another currency is offered when the bank converted it (within 5 %): show its amount.
                    label: `${suggestion.label} · ${formatDate(suggestion.date)}${suggestion.currency !== tx.currency ? ` · ${suggestion.currency} ${formatAmount(suggestion.amount)}` : ''}`,
                  }));
                  const picked = tx.suggestions.find((suggestion) => `${suggestion.kind}:${suggestion.uuid}` === (chosenDocument[tx.id] ?? null));
                  return (
                    <Table.Tr key={tx.id}>
                      {canWrite ? (
                        <Table.Td>
                          <Checkbox
                            aria-label={t('Choose bank line {{id}}', { id: tx.id })}
                            checked={checked.includes(tx.id)}
                            onChange={(e) => {
                              const on = e.currentTarget.checked;
                              setChecked((current) => (on ? [...current, tx.id] : current.filter((id) => id !== tx.id)));
                            }}
                          />
                        </Table.Td>
                      ) : null}
                      <Table.Td>{formatDate(tx.bookingDate)}</Table.Td>
                      <Table.Td>
                        {tx.counterparty ?? '-'}
                        <Text size="xs" c="dimmed">
                          {[tx.counterpartyIban, tx.reference, tx.description].filter(Boolean).join(SEPARATOR)}
                        </Text>
                        {tx.reason ? (
                          <Text size="xs" c="orange.8">
                            {t('Not matched automatically: {{reason}}', { reason: tx.reason })}
                          </Text>
                        ) : null}
                      </Table.Td>
                      <Table.Td className="num">{tx.direction === 1 ? <Amount value={tx.amount} /> : null}</Table.Td>
                      <Table.Td className="num">{tx.direction === -1 ? <Amount value={tx.amount} /> : null}</Table.Td>
                      {canWrite ? (
                        <Table.Td>
                          <Stack gap={6}>
                            <Group gap={6} wrap="nowrap">
                              <Select
                                aria-label={tx.direction === 1 ? t('Open invoice for {{id}}', { id: tx.id }) : t('Open bill for {{id}}', { id: tx.id })}
                                data={suggestions}
                                value={chosenDocument[tx.id] ?? null}
                                onChange={(value) => setChosenDocument((current) => ({ ...current, [tx.id]: value }))}
                                placeholder={
                                  suggestions.length
                                    ? tx.direction === 1
                                      ? t('Choose the invoice')
                                      : t('Choose the bill')
                                    : tx.direction === 1
                                      ? t('No open invoice of this amount')
                                      : t('No open bill of this amount')
                                }
                                disabled={suggestions.length === 0}
                                size="xs"
                                w={310}
                              />
                              <Button
                                size="compact-sm"
                                disabled={!picked}
                                loading={match.isPending && match.variables?.id === tx.id}
                                onClick={() => picked && match.mutate({ id: tx.id, suggestion: picked })}
                              >
                                {t('Match')}
                              </Button>
                            </Group>
                            {picked && picked.currency !== tx.currency ? (
                              <Text size="xs" c="dimmed">
                                {t('{{original}} paid as {{paid}}: the difference to the booked amount is an exchange gain (6952) or loss (6942).', {
                                  original: `${picked.currency} ${formatAmount(picked.amount)}`,
                                  paid: `${tx.currency} ${formatAmount(tx.amount)}`,
                                })}
                              </Text>
                            ) : null}
                            <Group gap={6} wrap="nowrap">
                              <Select
                                aria-label={t('Counter account for {{id}}', { id: tx.id })}
                                searchable
                                data={options}
                                value={counter[tx.id] ?? null}
                                onChange={(value) => setCounter((current) => ({ ...current, [tx.id]: value }))}
                                placeholder={t('Account')}
                                size="xs"
                                w={310}
                              />
                              <Button
                                size="compact-sm"
                                variant="default"
                                disabled={!counter[tx.id]}
                                loading={book.isPending && book.variables?.id === tx.id}
                                onClick={() => book.mutate({ id: tx.id, counterId: Number(counter[tx.id]) })}
                              >
                                {t('Book')}
                              </Button>
                            </Group>
                            <Group gap={6} wrap="nowrap">
                              <Button
                                size="compact-sm"
                                variant="light"
                                onClick={() => {
                                  // The checked lines of the same direction go with this one (many-to-one).
                                  const others = o.unmatched.filter((line) => checked.includes(line.id) && line.id !== tx.id && line.direction === tx.direction);
                                  setMatching([tx, ...others]);
                                }}
                              >
                                {t('Match to postings…')}
                              </Button>
                              <Button size="compact-sm" variant="subtle" color="gray" onClick={() => setIgnoring(tx)}>
                                {t('Ignore…')}
                              </Button>
                            </Group>
                          </Stack>
                        </Table.Td>
                      ) : null}
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          )}
          {canWrite && checked.length > 1 ? (
            <Text size="sm" c="dimmed">
              {t('{{number}} lines chosen: “Match to postings…” on one of them matches them together.', { number: checked.length })}
            </Text>
          ) : null}
          <DoneSections data={o} canWrite={canWrite} onChange={() => void refresh()} />
          {matching ? (
            <MatchPostingsModal
              lines={matching}
              postings={o.openPostings}
              onClose={() => setMatching(null)}
              onDone={() => {
                setMatching(null);
                void refresh();
              }}
            />
          ) : null}
          {ignoring ? (
            <IgnoreModal
              line={ignoring}
              onClose={() => setIgnoring(null)}
              onDone={() => {
                setIgnoring(null);
                void refresh();
              }}
            />
          ) : null}
        </>
      ) : null}
    </Page>
  );
}
