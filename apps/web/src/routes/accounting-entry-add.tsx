import { EntryAddPage } from '../features/accounting/entry-add-page';

export function Component() {
  return <EntryAddPage />;
}
