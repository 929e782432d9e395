import { InvoiceImportPage } from '../features/invoicing/import-page';

export function Component() {
  return <InvoiceImportPage />;
}
