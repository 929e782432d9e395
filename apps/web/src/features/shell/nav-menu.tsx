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
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { paths } from '../../config/paths';
import { msg } from '../../lib/i18n';

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
  { label: msg('Dashboard'), href: paths.home.getHref(), icon: IconHome },
  { label: msg('Inbox'), href: paths.inbox.getHref(), icon: IconInbox },
  { label: msg('Companies'), href: paths.companies.getHref(), icon: IconBuilding },
  { label: msg('Invoice'), href: paths.invoices.getHref(), icon: IconFileInvoice },
  // Ours (issue 15 §4): quotes and recurring invoices, next to Invoice.
  { label: msg('Quotes'), href: paths.quotes.getHref(), icon: IconFileDescription },
  { label: msg('Recurring invoices'), href: paths.recurringInvoices.getHref(), icon: IconRepeat },
  // Ours (issue 15 §3): the dunning run, in the invoices area.
  { label: msg('Dunning'), href: paths.dunning.getHref(), icon: IconBellRinging },
  { label: msg('Bills'), href: paths.bills.getHref(), icon: IconReceipt },
  { label: msg('Transaction Group'), href: paths.transactionGroups.getHref(), icon: IconStack2 },
  // Ours (issue 15 §1): the e-mails sent from the workplace, beside the documents they carry.
  { label: msg('Outbox'), href: paths.outbox.getHref(), icon: IconMail },
];

const groups: Group[] = [
  {
    label: msg('Accounting'),
    icon: IconCalculator,
    entries: [
      entry(msg('Add Journal Entry'), paths.entryAdd.getHref()),
      entry(msg('Trial Balance'), paths.trialBalance.getHref()),
      entry(msg('Journal'), paths.journal.getHref()),
      entry(msg('Ledger Accounts'), paths.accounts.getHref()),
      entry(msg('Accounting Locks'), paths.lock.getHref()),
      entry(msg('VAT Codes'), paths.vatCodes.getHref()),
      entry(msg('Accounting Checks'), paths.checks.getHref()),
      entry(msg('Closing'), paths.close.getHref()),
      entry(msg('VAT Return'), paths.vat.getHref()),
    ],
  },
  {
    label: msg('Imports'),
    icon: IconFileDownload,
    entries: [
      entry(msg('Import Salary'), paths.salaryImport.getHref()),
      entry(msg('Invoice'), paths.invoiceImport.getHref()),
      entry(msg('Import Mail/Dext'), paths.mailImport.getHref()),
    ],
  },
  {
    label: msg('Reports'),
    icon: IconChartBar,
    entries: [entry(msg('Reports'), paths.reports.getHref()), entry(msg('Analytics'), paths.reportAnalytics.getHref())],
  },
];

/** Active when the page is the entry or below it ('/' only on its own). */
const isActive = (pathname: string, href: string) =>
  href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);

export function NavMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  // The most specific entry wins, so '/invoice/import' lights 'Invoice' under Imports, not 'Invoice' above.
  const allHrefs = [...topEntries.map((e) => e.href), ...groups.flatMap((g) => g.entries.map((e) => e.href))];
  const activeHref = allHrefs
    .filter((href) => isActive(pathname, href))
    .sort((a, b) => b.length - a.length)[0];

  return (
    <ScrollArea type="auto" style={{ flex: 1 }}>
      <nav aria-label={t('Main menu')}>
        {topEntries.map(({ label, href, icon: Icon }) => (
          <NavLink
            key={href}
            component={Link}
            to={href}
            label={t(label)}
            leftSection={<Icon size={18} stroke={1.6} aria-hidden />}
            active={activeHref === href}
            onClick={onNavigate}
          />
        ))}
        {groups.map(({ label, icon: Icon, entries }) => (
          <NavLink
            key={label}
            label={t(label)}
            leftSection={<Icon size={18} stroke={1.6} aria-hidden />}
            defaultOpened={entries.some((e) => e.href === activeHref) || label === 'Accounting'}
            childrenOffset={28}
          >
            {entries.map((child) => (
              <NavLink
                key={child.href}
                component={Link}
                to={child.href}
                label={t(child.label)}
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
