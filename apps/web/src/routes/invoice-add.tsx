import { InvoiceAddPage } from '../features/invoicing/invoice-add-page';

export function Component() {
  return <InvoiceAddPage />;
}
