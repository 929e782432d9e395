import { AccountDetailPage } from '../features/accounting/account-detail-page';

export function Component() {
  return <AccountDetailPage />;
}
