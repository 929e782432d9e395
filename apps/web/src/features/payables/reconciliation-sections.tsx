import { useState } from 'react';
import { entrySourceLabel } from '../../lib/entry-source';
import { Badge, Button, Checkbox, Group, Modal, Paper, SimpleGrid, Stack, Table, Text, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { formatAmount, formatDate, toFixedAmount, toMoney } from '@bilan/domain';
import { Amount } from '../../ui/amount';
import { ConfirmDeleteModal } from '../../ui/confirm-delete-modal';
import { ErrorAlert } from '../../ui/error-alert';
import { deleteBankFile, ignoreBankTransaction, matchToPostings, unignoreBankTransaction, unmatchBankTransaction, type OpenPosting, type Reconciliation, type UnmatchedTransaction } from './api';
import { Trans, useTranslation } from 'react-i18next';
import { msg } from '../../lib/i18n';

/** Money in positive: the signed amount of a bank line or a posting (debit = money in on a bank account). */
const signed = (direction: number, amount: string) => toMoney(amount).times(direction);

/** `name`: the figure's English name (msg), shown translated; the test id is made of the English name. */
function Figure({ name, value, alert }: { name: string; value: string | null; alert?: boolean }) {
  const { t } = useTranslation();
  return (
    <div>
      <Text size="xs" c="dimmed">
        {t(name)}
      </Text>
      <Text fw={600} c={alert ? 'red' : undefined} data-testid={`summary-${name.toLowerCase().replace(/[^a-z]+/g, '-')}`}>
        {value === null ? '-' : <Amount value={value} />}
      </Text>
    </div>
  );
}

/**
 * The reconciliation at the chosen date (issue 14 §1): the statement's closing balance against the
 * ledger, the statement lines' reconciled / open / ignored sums (money in positive), the difference
 * (0.00 when done) and the gap to the previous statement (0.00 when none is missing).
 */
export function SummaryPanel({ summary }: { summary: Reconciliation['summary'] }) {
  const { t } = useTranslation();
  const off = (value: string | null) => value !== null && value !== '0.00';
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          {summary.statement
            ? `${
                summary.statement.closingDate
                  ? t('Statement {{id}} closing {{date}}', { id: summary.statement.messageId, date: formatDate(summary.statement.closingDate) })
                  : t('Statement {{id}}', { id: summary.statement.messageId })
              }${summary.statement.iban ? ` · ${summary.statement.iban}` : ''}`
            : t('No statement closing on or before {{date}}', { date: formatDate(summary.date) })}
        </Text>
        <SimpleGrid cols={{ base: 2, sm: 4, lg: 7 }}>
          <Figure name={msg('Statement closing balance')} value={summary.statementBalance} />
          <Figure name={msg('Ledger balance')} value={summary.ledgerBalance} />
          <Figure name={msg('Difference')} value={summary.difference} alert={off(summary.difference)} />
          <Figure name={msg('Reconciled')} value={summary.reconciled} />
          <Figure name={msg('Open')} value={summary.unreconciled} alert={off(summary.unreconciled)} />
          <Figure name={msg('Ignored')} value={summary.ignored} />
          <Figure name={msg('Gap to previous statement')} value={summary.gap} alert={off(summary.gap)} />
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

/**
 * Match open bank lines to postings already in the books: `lines` (one, or several checked: many-to-one)
 * against the checked postings of the same direction (one or several: one-to-many). Match is offered
 * once the sums agree; the server checks again and books nothing.
 */
export function MatchPostingsModal({ lines, postings, onClose, onDone }: { lines: UnmatchedTransaction[]; postings: OpenPosting[]; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<number[]>([]);
  const direction = lines[0]?.direction ?? 1;
  const candidates = postings.filter((p) => p.direction === direction);
  const lineSum = lines.reduce((sum, l) => sum.plus(signed(l.direction, l.amount)), toMoney(0));
  const postingSum = candidates.filter((p) => picked.includes(p.lineId)).reduce((sum, p) => sum.plus(signed(p.direction, p.amount)), toMoney(0));
  const match = useMutation({
    mutationFn: () => matchToPostings(lines.map((l) => l.id), picked),
    onSuccess: onDone,
  });
  return (
    <Modal opened onClose={onClose} title={t('Match to postings in the books')} size="xl" centered>
      <Stack gap="sm">
        <Text size="sm">
          <Trans
            t={t}
            i18nKey={
              direction === 1
                ? msg('{{lines}} of {{date}}: <amount/> in. Choose the postings on this account that stand for it; nothing is booked.')
                : msg('{{lines}} of {{date}}: <amount/> out. Choose the postings on this account that stand for it; nothing is booked.')
            }
            values={{ lines: t('{{count}} bank lines', { count: lines.length }), date: formatDate(lines[0]!.bookingDate) }}
            components={{ amount: <Amount value={toFixedAmount(lineSum.abs())} /> }}
          />
        </Text>
        {candidates.length === 0 ? (
          <Text c="dimmed">{t('No unreconciled posting of this direction on the account.')}</Text>
        ) : (
          <Table withTableBorder striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40} />
                <Table.Th w={110}>{t('Date')}</Table.Th>
                <Table.Th>{t('Entry')}</Table.Th>
                <Table.Th className="num" w={130}>
                  {t('Amount')}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {candidates.map((p) => (
                <Table.Tr key={p.lineId}>
                  <Table.Td>
                    <Checkbox
                      aria-label={t('Posting {{id}}', { id: p.lineId })}
                      checked={picked.includes(p.lineId)}
                      onChange={(e) => {
                        const on = e.currentTarget.checked;
                        setPicked((current) => (on ? [...current, p.lineId] : current.filter((id) => id !== p.lineId)));
                      }}
                    />
                  </Table.Td>
                  <Table.Td>{formatDate(p.dateLedger)}</Table.Td>
                  <Table.Td>
                    {p.description}
                    <Text size="xs" c="dimmed">
                      {t('entry {{id}} · {{source}}', { id: p.entryId, source: entrySourceLabel(p.source) })}
                    </Text>
                  </Table.Td>
                  <Table.Td className="num">
                    <Amount value={p.amount} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Text size="sm" c={picked.length && !postingSum.eq(lineSum) ? 'red' : 'dimmed'}>
          {t('Chosen postings: {{chosen}} of {{total}}', { chosen: formatAmount(toFixedAmount(postingSum.abs())), total: formatAmount(toFixedAmount(lineSum.abs())) })}
        </Text>
        {match.isError ? <ErrorAlert what={t('Could not match')} error={match.error} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button disabled={!picked.length || !postingSum.eq(lineSum)} loading={match.isPending} onClick={() => match.mutate()}>
            {t('Match')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Ignore an open bank line with a reason (e.g. a transfer between own accounts booked elsewhere). */
export function IgnoreModal({ line, onClose, onDone }: { line: UnmatchedTransaction; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const ignore = useMutation({ mutationFn: () => ignoreBankTransaction(line.id, reason), onSuccess: onDone });
  return (
    <Modal opened onClose={onClose} title={t('Ignore the bank line')} centered>
      <Stack gap="sm">
        <Text size="sm">
          {`${formatDate(line.bookingDate)} · ${line.counterparty ?? '-'} · ${line.currency} ${formatAmount(line.amount)} `}
          {line.direction === 1 ? t('in') : t('out')}
        </Text>
        <Textarea label={t('Reason')} required autosize minRows={2} maxLength={500} value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
        {ignore.isError ? <ErrorAlert what={t('Could not ignore the line')} error={ignore.error} /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('Cancel')}
          </Button>
          <Button disabled={!reason.trim()} loading={ignore.isPending} onClick={() => ignore.mutate()}>
            {t('Ignore')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Reconciled lines (latest first) with Unmatch, ignored lines with Un-ignore, and the imported files with Delete. */
export function DoneSections({ data, canWrite, onChange }: { data: Reconciliation; canWrite: boolean; onChange: () => void }) {
  const { t } = useTranslation();
  const unmatch = useMutation({ mutationFn: unmatchBankTransaction, onSuccess: onChange });
  const unignore = useMutation({ mutationFn: unignoreBankTransaction, onSuccess: onChange });
  const [deleting, setDeleting] = useState<Reconciliation['files'][number] | null>(null);
  const remove = useMutation({
    mutationFn: deleteBankFile,
    onSuccess: () => {
      setDeleting(null);
      onChange();
    },
  });
  return (
    <>
      {unmatch.isError ? <ErrorAlert what={t('Could not unmatch the line')} error={unmatch.error} /> : null}
      {unignore.isError ? <ErrorAlert what={t('Could not take the line back')} error={unignore.error} /> : null}
      {data.ignored.length ? (
        <>
          <Text fw={600}>{t('Ignored')}</Text>
          <Table withTableBorder striped>
            <Table.Tbody>
              {data.ignored.map((line) => (
                <Table.Tr key={line.id}>
                  <Table.Td w={110}>{formatDate(line.bookingDate)}</Table.Td>
                  <Table.Td>
                    {line.counterparty ?? '-'}
                    <Text size="xs" c="dimmed">
                      {t('Ignored: {{reason}}', { reason: line.reason })}
                    </Text>
                  </Table.Td>
                  <Table.Td className="num" w={130}>
                    <Amount value={toFixedAmount(signed(line.direction, line.amount))} />
                  </Table.Td>
                  {canWrite ? (
                    <Table.Td w={130}>
                      <Button size="compact-sm" variant="default" loading={unignore.isPending && unignore.variables === line.id} onClick={() => unignore.mutate(line.id)}>
                        {t('Un-ignore')}
                      </Button>
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      ) : null}
      <Text fw={600}>{t('Reconciled')}</Text>
      {data.reconciledLines.length === 0 ? (
        <Text c="dimmed">{t('No bank line reconciled yet.')}</Text>
      ) : (
        <Table withTableBorder striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={110}>{t('Date')}</Table.Th>
              <Table.Th>{t('Counterparty')}</Table.Th>
              <Table.Th>{t('How')}</Table.Th>
              <Table.Th className="num" w={130}>
                {t('Amount')}
              </Table.Th>
              {canWrite ? <Table.Th w={130} /> : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.reconciledLines.map((line) => (
              <Table.Tr key={line.id}>
                <Table.Td>{formatDate(line.bookingDate)}</Table.Td>
                <Table.Td>
                  {line.counterparty ?? '-'}
                  {line.kind === 'charges' ? (
                    <Badge ml="xs" size="xs" variant="light">
                      {t('charges')}
                    </Badge>
                  ) : null}
                  {line.statement ? null : (
                    <Badge ml="xs" size="xs" variant="light" color="gray">
                      camt.054
                    </Badge>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{line.entryId !== null ? t('Booked entry {{id}}', { id: line.entryId }) : line.postings ? t('Matched to {{count}} postings in the books', { count: line.postings }) : t('Matched')}</Text>
                </Table.Td>
                <Table.Td className="num">
                  <Amount value={toFixedAmount(signed(line.direction, line.amount))} />
                </Table.Td>
                {canWrite ? (
                  <Table.Td>
                    <Button size="compact-sm" variant="default" color="red" loading={unmatch.isPending && unmatch.variables === line.id} onClick={() => unmatch.mutate(line.id)}>
                      {t('Unmatch')}
                    </Button>
                  </Table.Td>
                ) : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Text fw={600}>{t('Imported files')}</Text>
      {data.files.length === 0 ? (
        <Text c="dimmed">{t('No bank file imported on this account.')}</Text>
      ) : (
        <Table withTableBorder striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={100}>{t('Kind')}</Table.Th>
              <Table.Th>{t('Message')}</Table.Th>
              <Table.Th w={110}>{t('Closing')}</Table.Th>
              <Table.Th className="num" w={130}>
                {t('Closing balance')}
              </Table.Th>
              <Table.Th className="num" w={150}>
                {t('Lines (reconciled)')}
              </Table.Th>
              {canWrite ? <Table.Th w={110} /> : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.files.map((file) => (
              <Table.Tr key={file.id}>
                <Table.Td>{file.kind}</Table.Td>
                <Table.Td>{file.messageId}</Table.Td>
                <Table.Td>{file.closingDate ? formatDate(file.closingDate) : '-'}</Table.Td>
                <Table.Td className="num">{file.closingBalance === null ? '-' : <Amount value={file.closingBalance} />}</Table.Td>
                <Table.Td className="num">
                  {`${file.lines} (${file.reconciled})`}
                </Table.Td>
                {canWrite ? (
                  <Table.Td>
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      disabled={file.reconciled > 0}
                      title={file.reconciled > 0 ? t('Unmatch its reconciled lines first') : undefined}
                      onClick={() => {
                        remove.reset();
                        setDeleting(file);
                      }}
                    >
                      {t('Delete')}
                    </Button>
                  </Table.Td>
                ) : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <ConfirmDeleteModal
        opened={deleting !== null}
        title={t('Delete the import')}
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        error={remove.isError ? <ErrorAlert what={t('Could not delete the import')} error={remove.error} /> : undefined}
      >
        <Text size="sm">
          {deleting
            ? t('{{file}} and its {{count}} lines are deleted; nothing in the books changes.', { count: deleting.lines, file: `${deleting.kind} ${deleting.messageId}` })
            : null}
        </Text>
      </ConfirmDeleteModal>
    </>
  );
}
