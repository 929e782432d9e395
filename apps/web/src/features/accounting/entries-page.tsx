import { useState } from 'react';
import { Anchor, Button, Table, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { formatDate } from '@bilan/domain';
import { paths } from '../../config/paths';
import { useCan } from '../../lib/session';
import { Amount } from '../../ui/amount';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { entryListQuery, PAGE_SIZE } from './api';
import { EntryFilters, emptyEntryFilters, toRequestFilters, type EntryFilterValues } from './entry-filters';
import { Pager } from '../../ui/pager';

/** /accounting/entry: paged entries, newest first; a row opens the entry. */
export function EntriesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [filters, setFilters] = useState<EntryFilterValues>(emptyEntryFilters);
  const [text] = useDebouncedValue(filters.text, 300);
  const [page, setPage] = useState(1);
  const entries = useQuery(entryListQuery(toRequestFilters(filters, text), page));

  const changeFilters = (next: EntryFilterValues) => {
    setFilters(next);
    setPage(1);
  };
  const open = (id: number) => void navigate(paths.entryDetail.getHref(id));
  // A viewer reads only (issue #3): no write buttons.
  const canWrite = useCan('write');

  return (
    <Page
      title={t('Entries')}
      actions={
        canWrite && (
        <>
          <Button component={Link} to={paths.accountingImport.getHref()} variant="default">
            {t('Import')}
          </Button>
          <Button component={Link} to={paths.entryAdd.getHref()} leftSection={<IconPlus size={16} />}>
            {t('Add Journal Entry')}
          </Button>
        </>
        )
      }
    >
      <EntryFilters value={filters} onChange={changeFilters} />
      {entries.isError ? <ErrorAlert what={t('Could not load the entries')} error={entries.error} onRetry={() => void entries.refetch()} /> : null}
      {!entries.data && !entries.isError ? <TableSkeleton /> : null}
      {entries.data ? (
        <>
          <Table.ScrollContainer minWidth={600} maxHeight="calc(100vh - 300px)">
            <Table stickyHeader striped highlightOnHover withTableBorder aria-busy={entries.isFetching}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={110}>{t('Date')}</Table.Th>
                  <Table.Th w={80}>{t('ID')}</Table.Th>
                  <Table.Th>{t('Description')}</Table.Th>
                  <Table.Th className="num" w={160}>
                    {t('Debit total')}
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries.data.data.map((entry) => (
                  <Table.Tr
                    key={entry.id}
                    className="clickable"
                    tabIndex={0}
                    onClick={() => open(entry.id)}
                    onKeyDown={(event) => {
                      if (event.key === 'Enter') open(entry.id);
                    }}
                  >
                    <Table.Td>{formatDate(entry.dateLedger)}</Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={paths.entryDetail.getHref(entry.id)} size="sm" tabIndex={-1}>
                        {entry.id}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{entry.description}</Table.Td>
                    <Table.Td className="num">
                      <Amount value={entry.debitTotal} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {entries.data.total === 0 ? <Text c="dimmed">{t('No entries match these filters.')}</Text> : null}
          <Pager page={page} pageSize={PAGE_SIZE} total={entries.data.total} capped={entries.data.totalCapped} onChange={setPage} />
        </>
      ) : null}
    </Page>
  );
}
