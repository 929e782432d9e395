import { InvoicesPage } from '../features/invoicing/invoices-page';

export function Component() {
  return <InvoicesPage />;
}
