import { AccountsPage } from '../features/accounting/accounts-page';

export function Component() {
  return <AccountsPage />;
}
