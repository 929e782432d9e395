import { StatementPage } from '../features/accounting/statement-page';

export function Component() {
  return <StatementPage />;
}
