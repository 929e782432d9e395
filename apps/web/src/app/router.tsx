/**
 * The route tree (spec §2). Route modules live in src/routes and are loaded on demand; the login
 * area and the single sign-on return are public, /onboarding needs a token, everything else sits
 * in the authenticated shell behind the guard.
 */
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { paths } from '../config/paths';
import { ErrorPage } from '../ui/error-page';
import { AuthGuard, OnboardingGuard } from '../features/auth/auth-guard';
import { LoginLayout } from '../features/auth/login-layout';
import { ShellLayout } from '../features/shell/shell-layout';
import { RootLayout } from './root-layout';

/** `path` of a registry entry relative to its parent ('/accounting/journal' → 'accounting/journal'). */
const rel = (path: string) => path.replace(/^\//, '');

const shellRoutes: RouteObject[] = [
  { index: true, lazy: () => import('../routes/dashboard') },
  { path: rel(paths.salaryImport.path), lazy: () => import('../routes/salary-import') },
  { path: rel(paths.invoiceImport.path), lazy: () => import('../routes/invoice-import') },
  { path: rel(paths.invoices.path), lazy: () => import('../routes/invoices') },
  { path: rel(paths.invoiceDetail.path), lazy: () => import('../routes/invoice-detail') },
  { path: rel(paths.invoiceAdd.path), lazy: () => import('../routes/invoice-add') },
  { path: rel(paths.debtors.path), lazy: () => import('../routes/debtors') },
  { path: rel(paths.quotes.path), lazy: () => import('../routes/quotes') },
  { path: rel(paths.quoteAdd.path), lazy: () => import('../routes/quote-add') },
  { path: rel(paths.quoteDetail.path), lazy: () => import('../routes/quote-detail') },
  { path: rel(paths.recurringInvoices.path), lazy: () => import('../routes/recurring-invoices') },
  { path: rel(paths.recurringAdd.path), lazy: () => import('../routes/recurring-add') },
  { path: rel(paths.recurringDetail.path), lazy: () => import('../routes/recurring-detail') },
  { path: rel(paths.dunning.path), lazy: () => import('../routes/dunning') },
  { path: rel(paths.accounting.path), lazy: () => import('../routes/accounting') },
  { path: rel(paths.trialBalance.path), lazy: () => import('../routes/accounting-trial-balance') },
  { path: rel(paths.journal.path), lazy: () => import('../routes/accounting-journal') },
  { path: rel(paths.accounts.path), lazy: () => import('../routes/accounting-accounts') },
  { path: rel(paths.accountDetail.path), lazy: () => import('../routes/accounting-account-detail') },
  { path: rel(paths.accountReconciliation.path), lazy: () => import('../routes/accounting-account-reconciliation') },
  { path: rel(paths.statement.path), lazy: () => import('../routes/accounting-statement') },
  { path: rel(paths.lock.path), lazy: () => import('../routes/accounting-lock') },
  { path: rel(paths.vatCodes.path), lazy: () => import('../routes/accounting-vat-codes') },
  { path: rel(paths.checks.path), lazy: () => import('../routes/accounting-checks') },
  { path: rel(paths.close.path), lazy: () => import('../routes/accounting-close') },
  { path: rel(paths.vat.path), lazy: () => import('../routes/accounting-vat') },
  { path: rel(paths.entries.path), lazy: () => import('../routes/accounting-entries') },
  { path: rel(paths.entryAdd.path), lazy: () => import('../routes/accounting-entry-add') },
  { path: rel(paths.entryDetail.path), lazy: () => import('../routes/accounting-entry-detail') },
  { path: rel(paths.accountingImport.path), lazy: () => import('../routes/accounting-import') },
  { path: rel(paths.companies.path), lazy: () => import('../routes/companies') },
  { path: rel(paths.companyAdd.path), lazy: () => import('../routes/company-add') },
  { path: rel(paths.company.path), lazy: () => import('../routes/company') },
  { path: rel(paths.mailImport.path), lazy: () => import('../routes/mail-import') },
  { path: rel(paths.inbox.path), lazy: () => import('../routes/inbox') },
  { path: rel(paths.bills.path), lazy: () => import('../routes/bills') },
  { path: rel(paths.transactionGroups.path), lazy: () => import('../routes/transaction-groups') },
  { path: rel(paths.transactionGroupDetail.path), lazy: () => import('../routes/transaction-group-detail') },
  { path: rel(paths.reports.path), lazy: () => import('../routes/reports') },
  { path: rel(paths.reportAnalytics.path), lazy: () => import('../routes/report-analytics') },
  { path: rel(paths.settings.path), lazy: () => import('../routes/settings') },
  { path: rel(paths.profile.path), lazy: () => import('../routes/profile') },
  { path: rel(paths.staff.path), lazy: () => import('../routes/staff') },
  { path: rel(paths.superadmin.path), lazy: () => import('../routes/superadmin') },
  { path: rel(paths.logs.path), lazy: () => import('../routes/superadmin-logs') },
  { path: rel(paths.analytics.path), lazy: () => import('../routes/superadmin-analytics') },
  { path: rel(paths.jobs.path), lazy: () => import('../routes/superadmin-jobs') },
  { path: rel(paths.supportQueue.path), lazy: () => import('../routes/superadmin-support') },
  { path: rel(paths.outbox.path), lazy: () => import('../routes/outbox') },
  { path: rel(paths.support.path), lazy: () => import('../routes/support') },
  { path: rel(paths.password.path), lazy: () => import('../routes/password') },
  { path: paths.notFound.path, lazy: () => import('../routes/not-found') },
];

/** Marks the routes whose guard starts the session. */
const SESSION = { session: true } as const;

const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <ErrorPage />,
    children: [
      {
        element: <LoginLayout />,
        children: [
          { path: paths.login.path, lazy: () => import('../routes/login') },
          { path: paths.signup.path, lazy: () => import('../routes/login-signup') },
          { path: paths.loginSupport.path, lazy: () => import('../routes/login-support') },
          { path: paths.twoFactor.path, lazy: () => import('../routes/login-2fa') },
          { path: paths.loginInstance.path, lazy: () => import('../routes/login-instance') },
          // Any other /login/* path shows the workplace-name form (spec §2.8).
          { path: paths.loginAny.path, lazy: () => import('../routes/login') },
          { path: paths.ssoRedirect.path, lazy: () => import('../routes/sso-redirect') },
          { path: paths.logout.path, lazy: () => import('../routes/logout') },
        ],
      },
      { path: paths.publicInvoice.path, lazy: () => import('../routes/public-invoice') },
      { path: paths.terms.path, lazy: () => import('../routes/terms') },
      {
        element: <OnboardingGuard />,
        handle: SESSION,
        children: [{ path: paths.onboarding.path, lazy: () => import('../routes/onboarding') }],
      },
      {
        path: '/',
        element: <AuthGuard />,
        handle: SESSION,
        children: [
          {
            element: <ShellLayout />,
            // A page that fails to render shows the error page inside the shell, menu still usable.
            children: [{ errorElement: <ErrorPage />, children: shellRoutes }],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);

/**
 * Whether the page at `pathname` sits behind a guard that starts the session (the shell or
 * onboarding): main.tsx then starts it with the page, beside the language's catalogs, instead of
 * after the first render (issue 18 §1). The public pages (login, single sign-on return, terms, a
 * shared invoice) never start one: their own flow signs in.
 */
export function needsSession(pathname: string): boolean {
  return (matchRoutes(routes, pathname) ?? []).some(({ route }) => (route.handle as typeof SESSION | undefined)?.session === true);
}
