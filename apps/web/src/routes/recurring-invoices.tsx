import { RecurringListPage } from '../features/recurring/recurring-pages';

export function Component() {
  return <RecurringListPage />;
}
