import { useParams } from 'react-router';
import { InvoiceForm } from '../features/invoicing/invoice-form';
import { RecurringDetailPage } from '../features/recurring/recurring-pages';

export function Component() {
  const { uuid = '' } = useParams();
  return <RecurringDetailPage key={uuid} uuid={uuid} Form={InvoiceForm} />;
}
