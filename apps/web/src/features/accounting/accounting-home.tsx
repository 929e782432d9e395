import { Anchor, Paper, SimpleGrid, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { Page } from '../../ui/page';

const pages = [
  { ...paths.entryAdd, about: 'Book a journal entry by hand.' },
  { ...paths.entries, about: 'Find and open journal entries.' },
  { ...paths.journal, about: 'All entries in date order with their lines.' },
  { ...paths.accounts, about: 'The chart of accounts with balances.' },
  { ...paths.trialBalance, about: 'Debit, credit and balance of every account at a date.' },
  { ...paths.accountingImport, about: 'Chart of accounts and journal from CSV files.' },
  { ...paths.lock, about: 'Lock periods against changes.' },
  { ...paths.vatCodes, about: 'VAT codes of journal lines, invoices and bills.' },
  { ...paths.checks, about: 'Consistency checks of the books.' },
  { ...paths.close, about: 'Year-end closing.' },
  { ...paths.statement, about: 'Balance sheet and income statement.' },
  { ...paths.vat, about: 'The ESTV VAT return from the postings: XML, PDF and filing.' },
];

/** /accounting: the accounting module's pages at a glance. */
export function AccountingHome() {
  return (
    <Page title="Accounting">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {pages.map((page) => (
          <Paper key={page.path} withBorder p="md" radius="md">
            <Anchor component={Link} to={page.getHref()} fw={600}>
              {page.label}
            </Anchor>
            <Text size="sm" c="dimmed">
              {page.about}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
    </Page>
  );
}
