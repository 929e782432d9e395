import { Fragment, useState } from 'react';
import { Anchor, Button, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DebitCredit, formatDate } from '@bilan/domain';
import { paths } from '../../config/paths';
import { useCan } from '../../lib/session';
import { Amount } from '../../ui/amount';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { entryListQuery, PAGE_SIZE } from './api';
import { EntryFilters, emptyEntryFilters, toRequestFilters, type EntryFilterValues } from './entry-filters';
import { Pager } from '../../ui/pager';

/** /accounting/journal: entries in date order, each with its lines. */
export function JournalPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<EntryFilterValues>(emptyEntryFilters);
  const [page, setPage] = useState(1);
  const journal = useQuery(entryListQuery(toRequestFilters(filters, ''), page, 'asc'));

  const canWrite = useCan('write');
  return (
    <Page
      title={t('Journal')}
      actions={
        <>
          <Button component={Link} to={paths.entries.getHref()} variant="default">
            {t('Entries')}
          </Button>
          {canWrite ? (
            <>
              <Button component={Link} to={paths.accountingImport.getHref()} variant="default">
                {t('Import')}
              </Button>
              <Button component={Link} to={paths.entryAdd.getHref()} leftSection={<IconPlus size={16} />}>
                {t('Add Journal Entry')}
              </Button>
            </>
          ) : null}
        </>
      }
    >
      <EntryFilters
        value={filters}
        onChange={(next) => {
          setFilters(next);
          setPage(1);
        }}
        withText={false}
        withAccount={false}
      />
      {journal.isError ? <ErrorAlert what={t('Could not load the journal')} error={journal.error} onRetry={() => void journal.refetch()} /> : null}
      {!journal.data && !journal.isError ? <TableSkeleton /> : null}
      {journal.data ? (
        <>
          <Table.ScrollContainer minWidth={700} maxHeight="calc(100vh - 300px)">
            <Table stickyHeader withTableBorder aria-busy={journal.isFetching}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={110}>{t('Date')}</Table.Th>
                  <Table.Th w={80}>{t('Entry')}</Table.Th>
                  <Table.Th>{t('Account / description')}</Table.Th>
                  <Table.Th className="num" w={150}>
                    {t('Debit')}
                  </Table.Th>
                  <Table.Th className="num" w={150}>
                    {t('Credit')}
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {journal.data.data.map((entry) => (
                  <Fragment key={entry.id}>
                    <Table.Tr className="entry-head">
                      <Table.Td>{formatDate(entry.dateLedger)}</Table.Td>
                      <Table.Td>
                        <Anchor component={Link} to={paths.entryDetail.getHref(entry.id)} size="sm">
                          {entry.id}
                        </Anchor>
                      </Table.Td>
                      <Table.Td colSpan={3}>{entry.description || '-'}</Table.Td>
                    </Table.Tr>
                    {entry.entryAccounts.map((line) => (
                      <Table.Tr key={line.id}>
                        <Table.Td />
                        <Table.Td />
                        <Table.Td pl={line.direction === DebitCredit.credit ? 'xl' : undefined}>
                          <Anchor component={Link} to={paths.accountDetail.getHref(line.account.id)} size="sm" c="inherit">
                            {line.account.number} {line.account.name}
                          </Anchor>
                        </Table.Td>
                        <Table.Td className="num">{line.direction === DebitCredit.debit ? <Amount value={line.amount} /> : null}</Table.Td>
                        <Table.Td className="num">{line.direction === DebitCredit.credit ? <Amount value={line.amount} /> : null}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Fragment>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {journal.data.total === 0 ? (
            <Text c="dimmed">
              {t('The journal is empty.')}{' '}
              <Anchor component={Link} to={paths.entryAdd.getHref()} inherit>
                {t('Add a journal entry')}
              </Anchor>{' '}
              {t('or')}{' '}
              <Anchor component={Link} to={paths.accountingImport.getHref()} inherit>
                {t('import a journal')}
              </Anchor>
              .
            </Text>
          ) : null}
          <Pager page={page} pageSize={PAGE_SIZE} total={journal.data.total} capped={journal.data.totalCapped} onChange={setPage} />
        </>
      ) : null}
    </Page>
  );
}
