import { AccountingHome } from '../features/accounting/accounting-home';

export function Component() {
  return <AccountingHome />;
}
