import { Alert, Anchor, Group, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useCan } from '../../lib/session';
import { Page } from '../../ui/page';
import { ImportCard } from './import-card';
import { LockNotice } from '../../ui/lock-notice';

/** /accounting/import: chart of accounts and journal from CSV (docs/api.md import/chart, import/journal). */
export function ImportPage() {
  const { t } = useTranslation();
  const canWrite = useCan('write');
  return (
    <Page title={t('Import Accounting Data')}>
      {canWrite ? null : (
        <Alert color="yellow" variant="light" role="alert">
          {t('Your role (viewer) may only read in this workplace.')}
        </Alert>
      )}
      <LockNotice />
      <Text c="dimmed" size="sm">
        {t(
          'Import the chart of accounts first, then the journal: every account number in the journal must exist. A journal is imported whole or not at all.',
        )}
      </Text>
      {canWrite ? (
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
        <ImportCard
          kind="chart"
          title={t('Chart of accounts')}
          columns="number,name,type[,currency]"
          help={t('New numbers are created, existing ones updated.')}
        />
        <ImportCard
          kind="journal"
          title={t('Journal')}
          columns="date,entry,description,account,amount,currency"
          help={t('Rows with the same entry form one journal entry; a positive amount is a debit, a negative one a credit.')}
        />
      </SimpleGrid>
      ) : null}
      <Group gap="md">
        <Anchor component={Link} to={paths.journal.getHref()} size="sm">
          {t('Journal')}
        </Anchor>
        <Anchor component={Link} to={paths.accounts.getHref()} size="sm">
          {t('Ledger Accounts')}
        </Anchor>
        <Anchor component={Link} to={paths.trialBalance.getHref()} size="sm">
          {t('Trial Balance')}
        </Anchor>
      </Group>
    </Page>
  );
}
