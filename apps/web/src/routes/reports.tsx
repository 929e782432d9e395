import { ReportsPage } from '../features/payables/reports-page';

export function Component() {
  return <ReportsPage />;
}
