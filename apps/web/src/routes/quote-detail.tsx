import { useParams } from 'react-router';
import { InvoiceForm } from '../features/invoicing/invoice-form';
import { QuoteDetailPage } from '../features/quotes/quote-pages';

export function Component() {
  const { uuid = '' } = useParams();
  return <QuoteDetailPage key={uuid} uuid={uuid} Form={InvoiceForm} />;
}
