import { EntryDetailPage } from '../features/accounting/entry-detail-page';

export function Component() {
  return <EntryDetailPage />;
}
