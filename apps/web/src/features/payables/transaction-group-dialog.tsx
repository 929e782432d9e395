import { useState } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatDate, formatIban } from '@bilan/domain';
import { today } from '../../lib/dates';
import { useSingleFlight } from '../../lib/single-flight';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { Amount } from '../../ui/amount';
import { DateField } from '../../ui/date-field';
import { debtorAccountsQuery, insertGroup, payablesKey, type Payable, type TransactionGroup } from './api';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';

interface PaySelectedDialogProps {
  opened: boolean;
  /** The approved bills to pay together. */
  bills: Payable[];
  onClose: () => void;
  onCreated: (group: TransactionGroup) => void;
}

const SEPARATOR = ' · ';

/** A bill's proposed execution date: its due date when that is still ahead, else today. */
const proposedDate = (bill: Payable, now: string) => (bill.dueDate && bill.dueDate > now ? bill.dueDate : now);

function PaySelectedForm({ bills, onClose, onCreated }: Omit<PaySelectedDialogProps, 'opened'>) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const accounts = useQuery(debtorAccountsQuery());
  const now = today();
  const [debtor, setDebtor] = useState<string | null>(null);
  const [dates, setDates] = useState<Record<string, string | null>>(() => Object.fromEntries(bills.map((bill) => [bill.uuid, proposedDate(bill, now)])));
  const chosen = debtor ?? (accounts.data?.data[0] ? String(accounts.data.data[0].account.id) : null);
  const create = useMutation({
    mutationFn: () =>
      insertGroup(
        bills.map((bill) => bill.uuid),
        { executionDates: bills.map((bill) => dates[bill.uuid] ?? now), ...(chosen ? { debtorAccountId: Number(chosen) } : {}) },
      ),
    onSuccess: async (group) => {
      await queryClient.invalidateQueries({ queryKey: payablesKey });
      onCreated(group);
    },
  });
  const submit = useSingleFlight(create.mutateAsync);
  const fields = serverFieldErrors(create.error);
  const blocks = new Set(bills.map((bill) => dates[bill.uuid] ?? now)).size;
  const options = (accounts.data?.data ?? []).map((a) => ({ value: String(a.account.id), label: `${a.account.number} ${a.account.name} · ${formatIban(a.iban)}` }));

  return (
    <Stack gap="sm">
      <Select
        label={t('Pay from')}
        description={t('A bank account of your company (Settings → Payment Configuration)')}
        data={options}
        value={chosen}
        onChange={setDebtor}
        allowDeselect={false}
        error={fields['debtor.account.id']}
        disabled={accounts.isPending}
      />
      {accounts.data && accounts.data.data.length === 0 ? (
        <Alert color="yellow" variant="light">
          {t('Your company has no bank account with an IBAN and a ledger account yet: add one under Settings → Payment Configuration.')}
        </Alert>
      ) : null}
      <Table withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Bill or expense')}</Table.Th>
            <Table.Th w={110}>{t('Due')}</Table.Th>
            <Table.Th className="num" w={140}>
              {t('Amount')}
            </Table.Th>
            <Table.Th w={180}>{t('Execution date')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {bills.map((bill, index) => (
            <Table.Tr key={bill.uuid}>
              <Table.Td>
                {bill.isExpense ? t('Expense {{id}} · {{text}}', { id: bill.id, text: [bill.company?.name, bill.description].filter(Boolean).join(SEPARATOR) }) : `${bill.id} ${bill.company?.name ?? bill.description}`}
                {fields[`payable.uuids.${index}`] ? (
                  <Text size="xs" c="red">
                    {fields[`payable.uuids.${index}`]}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>{bill.dueDate ? formatDate(bill.dueDate) : '-'}</Table.Td>
              <Table.Td className="num">
                <Amount value={bill.amount} /> {bill.currency}
              </Table.Td>
              <Table.Td>
                <DateField
                  aria-label={t('Execution date of bill {{id}}', { id: bill.id })}
                  size="xs"
                  value={dates[bill.uuid] ?? null}
                  onChange={(value) => setDates((current) => ({ ...current, [bill.uuid]: value }))}
                  error={fields[`payable.executionDates.${index}`]}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="sm" c="dimmed">
        {t('The payment file will hold {{count}} payment blocks (one per execution date).', { count: blocks })}
      </Text>
      {create.isError && Object.keys(fields).length === 0 ? <Alert color="red">{errorMessage(create.error)}</Alert> : null}
      {create.isError && fields['payable.executionDates'] ? <Alert color="red">{fields['payable.executionDates']}</Alert> : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('Cancel')}
        </Button>
        <Button loading={create.isPending} disabled={!chosen || bills.some((bill) => !dates[bill.uuid])} onClick={() => submit()}>
          {t('Create transaction group')}
        </Button>
      </Group>
    </Stack>
  );
}

/** 'Pay 1 selected bill', 'Pay 2 selected expenses', 'Pay 3 selected bills and expenses': what the selection holds. */
function payTitle(bills: Payable[], t: TFunction): string {
  const expenses = bills.filter((bill) => bill.isExpense).length;
  if (expenses === 0) return t('Pay {{count}} selected bills', { count: bills.length });
  if (expenses === bills.length) return t('Pay {{count}} selected expenses', { count: bills.length });
  return t('Pay {{number}} selected bills and expenses', { number: bills.length });
}

/**
 * "Pay selected" on the bills page: the paying bank account and each bill's requested execution
 * date (its due date when still ahead), then a pending transaction group (docs/api.md
 * "Transaction groups"); the pain.001 gets one block per date.
 */
export function PaySelectedDialog({ opened, bills, onClose, onCreated }: PaySelectedDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={payTitle(bills, t)} size="lg">
      {opened ? <PaySelectedForm bills={bills} onClose={onClose} onCreated={onCreated} /> : null}
    </Modal>
  );
}
