import { useState } from 'react';
import { Anchor, Badge, Button, Group, Pagination, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconChevronDown, IconChevronUp, IconPlus, IconSearch, IconSelector } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { formatAmount, toMoney } from '@bilan/domain';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { CompanyImportModal } from './import-modal';
import { Amount } from '../../ui/amount';
import { COMPANY_PAGE_SIZE, companyListQuery, instanceDetailQuery, type CompanySortField } from './api';
import { canWrite, cityLine } from './labels';
import { UidLink } from './uid-link';
import { useTranslation } from 'react-i18next';
import { msg } from '../../lib/i18n';

/** Names of the pager's buttons. */
const PAGE_CONTROL_LABEL = { first: msg('first page'), previous: msg('previous page'), next: msg('next page'), last: msg('last page') } as const;

function SortHeader({ field, label, sort, onSort }: { field: CompanySortField; label: string; sort: { by: CompanySortField; order: 'asc' | 'desc' }; onSort: (field: CompanySortField) => void }) {
  const active = sort.by === field;
  const Icon = !active ? IconSelector : sort.order === 'asc' ? IconChevronUp : IconChevronDown;
  return (
    <Table.Th aria-sort={active ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton onClick={() => onSort(field)} fw={600} fz="sm">
        <Group gap={4} wrap="nowrap">
          {label}
          <Icon size={14} aria-hidden />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

/** An open amount linked to the company's ap-ar page; zero dimmed. */
function OpenAmount({ uuid, amount, what, name }: { uuid: string; amount: string | undefined; what: 'receivables' | 'payables'; name: string }) {
  const { t } = useTranslation();
  if (amount === undefined) return <Text size="sm">-</Text>;
  if (toMoney(amount).isZero()) {
    return (
      <Text size="sm" c="dimmed">
        <Amount value={amount} />
      </Text>
    );
  }
  return (
    <Anchor component={Link} to={paths.company.getHref(uuid, 'ap-ar')} size="sm" aria-label={
        what === 'receivables'
          ? t('Open receivables of {{name}}: {{amount}}', { name, amount: formatAmount(amount) })
          : t('Open payables of {{name}}: {{amount}}', { name, amount: formatAmount(amount) })
      }>
      <Amount value={amount} />
    </Anchor>
  );
}

/**
 * /company: companies with search (name, UID, city), sortable columns and pages; each with its
 * UID linked to the register and its open receivables and payables (as a Bexio user expects).
 */
export function CompaniesPage() {
  const { t } = useTranslation();
  const { profile } = useSession();
  const [search, setSearch] = useState('');
  const [text] = useDebouncedValue(search.trim(), 250);
  const [sort, setSort] = useState<{ by: CompanySortField; order: 'asc' | 'desc' }>({ by: 'name', order: 'asc' });
  const [page, setPage] = useState(1);
  const [importing, setImporting] = useState(false);
  const companies = useQuery(companyListQuery(text, sort, page));
  const currency = useQuery(instanceDetailQuery()).data?.currency;
  const onSort = (by: CompanySortField) => {
    setSort((current) => ({ by, order: current.by === by && current.order === 'asc' ? 'desc' : 'asc' }));
    setPage(1);
  };
  const pages = Math.max(1, Math.ceil((companies.data?.total ?? 0) / COMPANY_PAGE_SIZE));

  return (
    <Page
      title={t('Companies')}
      actions={
        canWrite(profile?.permissions) ? (
          <>
            <Button variant="default" onClick={() => setImporting(true)}>
              {t('Import')}
            </Button>
            <Button component={Link} to={paths.companyAdd.getHref()} leftSection={<IconPlus size={16} />}>
              {t('New company')}
            </Button>
          </>
        ) : null
      }
    >
      <TextInput
        label={t('Search')}
        placeholder={t('Name, UID or city')}
        leftSection={<IconSearch size={16} aria-hidden />}
        w={300}
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setPage(1);
        }}
      />
      {companies.isError ? <ErrorAlert what={t('Could not load the companies')} error={companies.error} onRetry={() => void companies.refetch()} /> : null}
      {!companies.data && !companies.isError ? <TableSkeleton /> : null}
      {companies.data ? (
        <>
          <Table.ScrollContainer minWidth={700}>
            <Table striped highlightOnHover withTableBorder aria-busy={companies.isFetching}>
              <Table.Thead>
                <Table.Tr>
                  <SortHeader field="name" label={t('Name')} sort={sort} onSort={onSort} />
                  <SortHeader field="uid" label="UID" sort={sort} onSort={onSort} />
                  <SortHeader field="city" label={t('City')} sort={sort} onSort={onSort} />
                  <Table.Th className="num">
                    {t('Open receivables')}
                    {currency ? ` (${currency})` : ''}
                  </Table.Th>
                  <Table.Th className="num">
                    {t('Open payables')}
                    {currency ? ` (${currency})` : ''}
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {companies.data.data.map((company) => (
                  <Table.Tr key={company.uuid}>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Anchor component={Link} to={paths.company.getHref(company.uuid, 'general')} size="sm">
                          {company.name}
                        </Anchor>
                        {company.isOwn ? (
                          <Badge size="xs" variant="light">
                            {t('own company')}
                          </Badge>
                        ) : null}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <UidLink uid={company.uid} />
                    </Table.Td>
                    <Table.Td>{cityLine(company.address)}</Table.Td>
                    <Table.Td className="num">
                      <OpenAmount uuid={company.uuid} amount={company.open?.receivable} what="receivables" name={company.name} />
                    </Table.Td>
                    <Table.Td className="num">
                      <OpenAmount uuid={company.uuid} amount={company.open?.payable} what="payables" name={company.name} />
                    </Table.Td>
                  </Table.Tr>
                ))}
                {companies.data.data.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={5}>
                      <Text c="dimmed" size="sm" ta="center" py="md">
                        {text ? t('No company matches "{{text}}".', { text }) : t('No companies yet.')}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : null}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {t('{{count}} companies', { count: companies.data.total })}
            </Text>
            {pages > 1 ? (
              <Pagination value={page} onChange={setPage} total={pages} size="sm" getControlProps={(control) => ({ 'aria-label': t(PAGE_CONTROL_LABEL[control]) })} />
            ) : null}
          </Group>
        </>
      ) : null}
      <CompanyImportModal opened={importing} onClose={() => setImporting(false)} />
    </Page>
  );
}
