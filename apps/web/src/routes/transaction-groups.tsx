import { TransactionGroupsPage } from '../features/payables/transaction-groups-page';

export function Component() {
  return <TransactionGroupsPage />;
}
