import { InvoiceDetailPage } from '../features/invoicing/invoice-detail-page';

export function Component() {
  return <InvoiceDetailPage />;
}
