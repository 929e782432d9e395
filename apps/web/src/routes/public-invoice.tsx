import { PublicInvoicePage } from '../features/invoicing/public-invoice-page';

export function Component() {
  return <PublicInvoicePage />;
}
