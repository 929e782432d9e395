import { InvoiceForm } from '../features/invoicing/invoice-form';
import { RecurringAddPage } from '../features/recurring/recurring-pages';

export function Component() {
  return <RecurringAddPage Form={InvoiceForm} />;
}
