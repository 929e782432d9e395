import {
  Alert,
  Anchor,
  Card,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { formatAmount, truncateName } from '@bilan/domain';
import { paths } from '../../config/paths';
import { msg } from '../../lib/i18n';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { countsQuery, dashboardBalancesQuery, type Counts, type DashboardBalances } from './api';
import { Sparkline } from './sparkline';
import { useObservedYear, YearField } from '../../ui/year-field';

/** Navigation state set by the journal entry form after saving (spec §2.4 success banner). */
export interface DashboardState {
  addedEntryId?: number;
}

const tiles: { key: keyof Counts; label: string; href: string }[] = [
  { key: 'Mail', label: msg('Mail'), href: paths.inbox.getHref() },
  { key: 'Payable', label: msg('Bill (Payable)'), href: paths.bills.getHref() },
  { key: 'TransactionGroup', label: msg('Transaction Group'), href: paths.transactionGroups.getHref() },
  { key: 'Invoice', label: msg('Invoice'), href: paths.invoices.getHref() },
];

function AddedEntryBanner() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const id = (location.state as DashboardState | null)?.addedEntryId;
  if (id === undefined) return null;
  return (
    <Alert
      color="green"
      variant="light"
      icon={<IconCircleCheck size={18} />}
      withCloseButton
      closeButtonLabel={t('Dismiss')}
      onClose={() => void navigate(location.pathname, { replace: true, state: null })}
      role="status"
    >
      {t('Journal Entry')}{' '}
      <Anchor component={Link} to={paths.entryDetail.getHref(id)} inherit>
        {id}
      </Anchor>{' '}
      {t('was successfully added.')}
    </Alert>
  );
}

/** The four tiles, counting the documents of `year` (all of them until a year is entered). */
function CountTiles({ year }: { year: number | null }) {
  const { t } = useTranslation();
  const counts = useQuery(countsQuery(year));
  if (counts.isError) return <ErrorAlert what={t('Could not load the counts')} error={counts.error} onRetry={() => void counts.refetch()} />;
  return (
    <SimpleGrid cols={{ base: 2, md: 4 }} spacing="md">
      {tiles.map((tile) => (
        <Paper key={tile.key} withBorder p="md" radius="md">
          <Text size="sm" c="dimmed">
            {t(tile.label)}
          </Text>
          {counts.data ? (
            <Text fz={28} fw={600} className="amount" data-testid={`count-${tile.key}`}>
              {counts.data[tile.key]}
            </Text>
          ) : (
            <Skeleton height={34} width={60} my={4} />
          )}
          <Anchor component={Link} to={tile.href} size="sm" aria-label={t('View Details: {{label}}', { label: t(tile.label) })}>
            {t('View Details')}
          </Anchor>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

function AccountCard({ account, endDates }: { account: DashboardBalances['accounts'][number]; endDates: string[] }) {
  const { t } = useTranslation();
  const latest = account.balances[account.balances.length - 1];
  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap={6}>
        <div>
          <Text size="xs" c="dimmed" className="amount">
            {account.number}
          </Text>
          <Text fw={600} title={account.name}>
            {truncateName(account.name)}
          </Text>
        </div>
        <Group gap={6} align="baseline">
          <Text fz={24} fw={600} className="amount">
            {formatAmount(latest)}
          </Text>
          <Text size="sm" c="dimmed">
            {account.currency}
          </Text>
        </Group>
        <Sparkline values={account.balances} dates={endDates} />
        <Group gap="md">
          <Anchor component={Link} to={paths.accountDetail.getHref(account.id)} size="sm">
            {t('Detail')}
          </Anchor>
          <Anchor component={Link} to={paths.accountReconciliation.getHref(account.id)} size="sm">
            {t('Reconciliation')}
          </Anchor>
        </Group>
      </Stack>
    </Card>
  );
}

/** "Ledger accounts in 2025" (or "2025/26" for a July–June fiscal year) and the cards of that year. */
function AccountCards({ year }: { year: number | null }) {
  const { t } = useTranslation();
  const balances = useQuery({ ...dashboardBalancesQuery(year ?? 0), enabled: year !== null });
  // The year is the fiscal year named by its start (accounting settings; the answer's label).
  const label = year === null ? '…' : (balances.data?.label ?? String(year));
  return (
    <>
      <Title order={2} size="h4" mt="sm">
        {t('Ledger accounts in {{year}}', { year: label })}
      </Title>
      <AccountCardsBody year={year} balances={balances} label={label} />
    </>
  );
}

function AccountCardsBody({ year, balances, label }: { year: number | null; balances: UseQueryResult<DashboardBalances>; label: string }) {
  const { t } = useTranslation();
  if (year === null) return <Text c="dimmed">{t('Enter a year between 1900 and 2300 to see the balances.')}</Text>;
  if (balances.isError)
    return <ErrorAlert what={t('Could not load the account balances')} error={balances.error} onRetry={() => void balances.refetch()} />;
  if (!balances.data)
    return (
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3, xl: 4 }}>
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} height={170} radius="md" />
        ))}
      </SimpleGrid>
    );
  const { accounts, endDates } = balances.data;
  if (accounts.length === 0)
    return (
      <Text c="dimmed">
        {t('No ledger account has a balance at the end of {{year}}.', { year: label })}{' '}
        <Anchor component={Link} to={paths.entryAdd.getHref()} inherit>
          {t('Add a journal entry')}
        </Anchor>{' '}
        {t('or')}{' '}
        <Anchor component={Link} to={paths.accountingImport.getHref()} inherit>
          {t('import your books')}
        </Anchor>
        .
      </Text>
    );
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3, xl: 4 }}>
      {accounts.map((account) => (
        <AccountCard key={account.id} account={account} endDates={endDates} />
      ))}
    </SimpleGrid>
  );
}

export function Dashboard() {
  const { t } = useTranslation();
  const observed = useObservedYear();
  const year = observed.year;

  return (
    <Page
      title={t('Dashboard')}
      actions={
        <YearField observed={observed} />
      }
    >
      <AddedEntryBanner />
      <CountTiles year={year} />
      <AccountCards year={year} />
    </Page>
  );
}
