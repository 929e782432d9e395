import { DebtorsPage } from '../features/invoicing/debtors-page';

export function Component() {
  return <DebtorsPage />;
}
