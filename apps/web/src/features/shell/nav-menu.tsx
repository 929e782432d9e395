import { NavLink, ScrollArea } from '@mantine/core';
import {
  IconBellRinging,
  IconBuilding,
  IconCalculator,
  IconChartBar,
  IconFileDownload,
  IconFileDescription,
  IconFileInvoice,
  IconRepeat,
  IconHome,
  IconInbox,
  IconMail,
  IconReceipt,
  IconStack2,
} from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { paths } from '../../config/paths';

interface Entry {
  label: string;
  href: string;
}

interface Group {
  label: string;
  icon: typeof IconHome;
  entries: Entry[];
}

const entry = (label: string, href: string): Entry => ({ label, href });

/** Menu entries of spec §2.3, in order. */
const topEntries: (Entry & { icon: typeof IconHome })[] = [
  { label: 'Dashboard', href: paths.home.getHref(), icon: IconHome },
  { label: 'Inbox', href: paths.inbox.getHref(), icon: IconInbox },
  { label: 'Companies', href: paths.companies.getHref(), icon: IconBuilding },
  { label: 'Invoice', href: paths.invoices.getHref(), icon: IconFileInvoice },
  // Ours (issue 15 §4): quotes and recurring invoices, next to Invoice.
  { label: 'Quotes', href: paths.quotes.getHref(), icon: IconFileDescription },
  { label: 'Recurring invoices', href: paths.recurringInvoices.getHref(), icon: IconRepeat },
  // Ours (issue 15 §3): the dunning run, in the invoices area.
  { label: 'Dunning', href: paths.dunning.getHref(), icon: IconBellRinging },
  { label: 'Bills', href: paths.bills.getHref(), icon: IconReceipt },
  { label: 'Transaction Group', href: paths.transactionGroups.getHref(), icon: IconStack2 },
  // Ours (issue 15 §1): the e-mails sent from the workplace, beside the documents they carry.
  { label: 'Outbox', href: paths.outbox.getHref(), icon: IconMail },
];

const groups: Group[] = [
  {
    label: 'Accounting',
    icon: IconCalculator,
    entries: [
      entry('Add Journal Entry', paths.entryAdd.getHref()),
      entry('Trial Balance', paths.trialBalance.getHref()),
      entry('Journal', paths.journal.getHref()),
      entry('Ledger Accounts', paths.accounts.getHref()),
      entry('Accounting Locks', paths.lock.getHref()),
      entry('VAT Codes', paths.vatCodes.getHref()),
      entry('Accounting Checks', paths.checks.getHref()),
      entry('Closing', paths.close.getHref()),
      entry('VAT Return', paths.vat.getHref()),
    ],
  },
  {
    label: 'Imports',
    icon: IconFileDownload,
    entries: [
      entry('Import Salary', paths.salaryImport.getHref()),
      entry('Invoice', paths.invoiceImport.getHref()),
      entry('Import Mail/Dext', paths.mailImport.getHref()),
    ],
  },
  {
    label: 'Reports',
    icon: IconChartBar,
    entries: [entry('Reports', paths.reports.getHref()), entry('Analytics', paths.reportAnalytics.getHref())],
  },
];

/** Active when the page is the entry or below it ('/' only on its own). */
const isActive = (pathname: string, href: string) =>
  href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);

export function NavMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { pathname } = useLocation();
  // The most specific entry wins, so '/invoice/import' lights 'Invoice' under Imports, not 'Invoice' above.
  const allHrefs = [...topEntries.map((e) => e.href), ...groups.flatMap((g) => g.entries.map((e) => e.href))];
  const activeHref = allHrefs
    .filter((href) => isActive(pathname, href))
    .sort((a, b) => b.length - a.length)[0];

  return (
    <ScrollArea type="auto" style={{ flex: 1 }}>
      <nav aria-label="Main menu">
        {topEntries.map(({ label, href, icon: Icon }) => (
          <NavLink
            key={href}
            component={Link}
            to={href}
            label={label}
            leftSection={<Icon size={18} stroke={1.6} aria-hidden />}
            active={activeHref === href}
            onClick={onNavigate}
          />
        ))}
        {groups.map(({ label, icon: Icon, entries }) => (
          <NavLink
            key={label}
            label={label}
            leftSection={<Icon size={18} stroke={1.6} aria-hidden />}
            defaultOpened={entries.some((e) => e.href === activeHref) || label === 'Accounting'}
            childrenOffset={28}
          >
            {entries.map((child) => (
              <NavLink
                key={child.href}
                component={Link}
                to={child.href}
                label={child.label}
                active={activeHref === child.href}
                onClick={onNavigate}
              />
            ))}
          </NavLink>
        ))}
      </nav>
    </ScrollArea>
  );
}
