import { InvoiceForm } from '../features/invoicing/invoice-form';
import { QuoteAddPage } from '../features/quotes/quote-pages';

export function Component() {
  return <QuoteAddPage Form={InvoiceForm} />;
}
