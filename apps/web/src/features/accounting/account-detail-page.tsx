import { useState } from 'react';
import { Anchor, Badge, Button, Group, Skeleton, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { currencyCodeById, formatDate, isValidIsoDate } from '@bilan/domain';
import { paths } from '../../config/paths';
import { today } from '../../lib/dates';
import { isApiError } from '../../lib/errors';
import { useSession } from '../../lib/session';
import { Amount } from '../../ui/amount';
import { ErrorAlert } from '../../ui/error-alert';
import { NotFound } from '../../ui/not-found';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { averageBookedRate } from './account-snapshot';
import { accountDetailQuery, accountPostingsQuery, accountSnapshotQuery, PAGE_SIZE, type LedgerAccount } from './api';
import { EntryFilters, emptyEntryFilters, type EntryFilterValues } from './entry-filters';
import { accountTypeLabel } from './labels';
import { Pager } from '../../ui/pager';

/**
 * The balance of an account kept in another currency than the books (spec §3 "Account balance
 * snapshot"): in its own currency (the figure on the bank statement) and in the books' currency, with
 * what was booked in other currencies (exchange differences, revaluations) and the average booked rate.
 */
function ForeignBalance({ account, books, date }: { account: LedgerAccount; books: string; date: string }) {
  const { t } = useTranslation();
  const snapshot = useQuery(accountSnapshotQuery(account.id, date));
  if (snapshot.isError) return <Text size="sm" c="red">{t('Could not load the balance in {{currency}}', { currency: account.currency })}</Text>;
  if (snapshot.isPending) return <Skeleton height={20} width={320} />;
  const row = snapshot.data;
  const own = row ? currencyCodeById(row.account_currency_id) ?? account.currency : account.currency;
  const rate = row ? averageBookedRate(row) : null;
  return (
    <Group gap="lg" data-testid="foreign-balance">
      <Text size="sm">
        {t('Balance at {{date}}', { date: formatDate(date) })}{' '}
        <Text span fw={600}>
          <Amount value={row?.sum_native ?? '0.00'} /> {own}
        </Text>{' '}
        {`· `}
        <Text span fw={600}>
          <Amount value={row?.sum_base ?? '0.00'} /> {books}
        </Text>
      </Text>
      {row && row.sum_base_trade !== '0.00' ? (
        <Text size="sm" c="dimmed">
          {t('of which')} <Amount value={row.sum_base_trade} /> {t('{{books}} booked in other currencies than {{own}}', { books, own })}
        </Text>
      ) : null}
      {rate ? (
        <Text size="sm" c="dimmed">
          {t('booked at {{rate}} {{books}} per {{own}} on average', { rate, books, own })}
        </Text>
      ) : null}
    </Group>
  );
}

/** A date of the URL (`?dateFrom=2025-01-01`), null when absent or not a date. */
const dateParam = (value: string | null) => (value && isValidIsoDate(value) ? value : null);

/**
 * /accounting/account/{id}/detail: postings with running balance, opening and closing balance; for
 * an account in another currency than the books, its balance in both currencies.
 * `?dateFrom=…&dateTo=…` opens it filtered to a period (the statements link here per line).
 */
export function AccountDetailPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const [search] = useSearchParams();
  const [filters, setFilters] = useState<EntryFilterValues>(() => ({
    ...emptyEntryFilters,
    dateFrom: dateParam(search.get('dateFrom')),
    dateTo: dateParam(search.get('dateTo')),
  }));
  const [page, setPage] = useState(1);
  const account = useQuery({ ...accountDetailQuery(id), enabled: valid });
  const range = {
    ...(filters.dateFrom ? { dateFrom: filters.dateFrom } : {}),
    ...(filters.dateTo ? { dateTo: filters.dateTo } : {}),
  };
  const postings = useQuery({ ...accountPostingsQuery(id, range, page), enabled: valid });
  const books = useSession().profile?.instance.currency;
  const isForeign = Boolean(account.data && books && account.data.currency !== books);

  if (!valid || isApiError(account.error, 404)) return <NotFound />;
  const title = account.data ? `${account.data.number} ${account.data.name}` : t('Account');

  return (
    <Page
      title={account.data ? title : <Skeleton height={32} width={280} />}
      documentTitle={title}
      actions={
        <Button component={Link} to={paths.accountReconciliation.getHref(id)} variant="default">
          {t('Reconciliation')}
        </Button>
      }
    >
      <Group gap="lg">
        <Anchor component={Link} to={paths.accounts.getHref()} size="sm">
          {`← `}
          {t('Ledger Accounts')}
        </Anchor>
        {account.data ? (
          <>
            <Badge variant="light" color="gray">
              {t(accountTypeLabel(account.data.type.id))}
            </Badge>
            {isForeign ? (
              <ForeignBalance account={account.data} books={books!} date={filters.dateTo ?? today()} />
            ) : (
              <Text size="sm">
                {t('Balance')}{' '}
                <Text span fw={600}>
                  <Amount value={account.data.balance} /> {account.data.currency}
                </Text>
              </Text>
            )}
          </>
        ) : null}
      </Group>
      {account.isError ? <ErrorAlert what={t('Could not load the account')} error={account.error} onRetry={() => void account.refetch()} /> : null}
      <EntryFilters
        value={filters}
        onChange={(next) => {
          setFilters(next);
          setPage(1);
        }}
        withText={false}
        withAccount={false}
      />
      {postings.isError ? <ErrorAlert what={t('Could not load the postings')} error={postings.error} onRetry={() => void postings.refetch()} /> : null}
      {!postings.data && !postings.isError ? <TableSkeleton /> : null}
      {postings.data ? (
        <>
          <Table.ScrollContainer minWidth={760} maxHeight="calc(100vh - 320px)">
            <Table stickyHeader striped withTableBorder aria-busy={postings.isFetching}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={110}>{t('Date')}</Table.Th>
                  <Table.Th w={80}>{t('Entry')}</Table.Th>
                  <Table.Th>{t('Description')}</Table.Th>
                  <Table.Th className="num" w={140}>
                    {t('Debit')}{isForeign ? ` ${books}` : ''}
                  </Table.Th>
                  <Table.Th className="num" w={140}>
                    {t('Credit')}{isForeign ? ` ${books}` : ''}
                  </Table.Th>
                  <Table.Th className="num" w={150}>
                    {t('Balance')}{isForeign ? ` ${books}` : ''}
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                <Table.Tr className="totals">
                  <Table.Td colSpan={5}>{t('Opening balance')}</Table.Td>
                  <Table.Td className="num">
                    <Amount value={postings.data.openingBalance} />
                  </Table.Td>
                </Table.Tr>
                {postings.data.data.map((posting) => (
                  <Table.Tr key={posting.id}>
                    <Table.Td>{formatDate(posting.entry.dateLedger)}</Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={paths.entryDetail.getHref(posting.entry.id)} size="sm">
                        {posting.entry.id}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{posting.entry.description}</Table.Td>
                    <Table.Td className="num">{posting.debit ? <Amount value={posting.debit} /> : null}</Table.Td>
                    <Table.Td className="num">{posting.credit ? <Amount value={posting.credit} /> : null}</Table.Td>
                    <Table.Td className="num">
                      <Amount value={posting.balance} />
                    </Table.Td>
                  </Table.Tr>
                ))}
                <Table.Tr className="totals">
                  <Table.Td colSpan={5}>{t('Closing balance')}</Table.Td>
                  <Table.Td className="num">
                    <Amount value={postings.data.closingBalance} />
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {postings.data.total === 0 ? <Text c="dimmed">{t('No postings in this period.')}</Text> : null}
          <Pager page={page} pageSize={PAGE_SIZE} total={postings.data.total} capped={postings.data.totalCapped} onChange={setPage} />
        </>
      ) : null}
    </Page>
  );
}
