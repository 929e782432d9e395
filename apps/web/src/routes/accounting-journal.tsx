import { JournalPage } from '../features/accounting/journal-page';

export function Component() {
  return <JournalPage />;
}
