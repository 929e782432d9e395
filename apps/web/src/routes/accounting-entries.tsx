import { EntriesPage } from '../features/accounting/entries-page';

export function Component() {
  return <EntriesPage />;
}
