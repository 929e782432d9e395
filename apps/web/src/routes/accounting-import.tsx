import { ImportPage } from '../features/accounting/import-page';

export function Component() {
  return <ImportPage />;
}
