import { Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../config/paths';
import { api } from '../lib/api';

/**
 * On a journal entry posted by an invoice: a link back to that invoice (POST /api/invoice/by-entry).
 * Lives in ui/ because the accounting and invoicing features both show it.
 */
export function EntryInvoiceLink({ entryId }: { entryId: number }) {
  const invoice = useQuery({
    queryKey: ['invoice', 'by-entry', entryId],
    queryFn: () => api.post('/api/invoice/by-entry', { id: entryId }),
    retry: false,
  });
  if (!invoice.data) return null;
  return (
    <Anchor component={Link} to={paths.invoiceDetail.getHref(invoice.data.uuid)} size="sm">
      Invoice {invoice.data.refNumber}
    </Anchor>
  );
}
