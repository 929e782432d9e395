import { useParams } from 'react-router';
import { ReminderHistory } from '../features/dunning/reminder-history';
import { InvoiceDetailPage } from '../features/invoicing/invoice-detail-page';
import { RecurringOrigin } from '../features/recurring/recurring-pages';

export function Component() {
  const { uuid = '' } = useParams();
  // The reminder history (dunning) sits in the invoice detail; features do not import each other.
  // The recurring invoice that created it (issue 15 §4) likewise.
  return (
    <InvoiceDetailPage
      extra={
        <>
          <RecurringOrigin invoiceUuid={uuid} />
          <ReminderHistory invoiceUuid={uuid} />
        </>
      }
    />
  );
}
