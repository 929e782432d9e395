import { Anchor, Paper, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { msg } from '../../lib/i18n';
import { Page } from '../../ui/page';

// The labels are the paths' labels, marked here for translation.
const pages = [
  { ...paths.entryAdd, label: msg('Add Journal Entry'), about: msg('Book a journal entry by hand.') },
  { ...paths.entries, label: msg('Entries'), about: msg('Find and open journal entries.') },
  { ...paths.journal, label: msg('Journal'), about: msg('All entries in date order with their lines.') },
  { ...paths.accounts, label: msg('Ledger Accounts'), about: msg('The chart of accounts with balances.') },
  { ...paths.trialBalance, label: msg('Trial Balance'), about: msg('Debit, credit and balance of every account at a date.') },
  { ...paths.accountingImport, label: msg('Import Accounting Data'), about: msg('Chart of accounts and journal from CSV files.') },
  { ...paths.lock, label: msg('Accounting Locks'), about: msg('Lock periods against changes.') },
  { ...paths.vatCodes, label: msg('VAT Codes'), about: msg('VAT codes of journal lines, invoices and bills.') },
  { ...paths.checks, label: msg('Accounting Checks'), about: msg('Consistency checks of the books.') },
  { ...paths.close, label: msg('Closing'), about: msg('Year-end closing.') },
  { ...paths.statement, label: msg('Financials'), about: msg('Balance sheet and income statement.') },
  { ...paths.vat, label: msg('VAT Return'), about: msg('The ESTV VAT return from the postings: XML, PDF and filing.') },
];

/** /accounting: the accounting module's pages at a glance. */
export function AccountingHome() {
  const { t } = useTranslation();
  return (
    <Page title={t('Accounting')}>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {pages.map((page) => (
          <Paper key={page.path} withBorder p="md" radius="md">
            <Anchor component={Link} to={page.getHref()} fw={600}>
              {t(page.label)}
            </Anchor>
            <Text size="sm" c="dimmed">
              {t(page.about)}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
    </Page>
  );
}
