import { Alert, Anchor } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { CenteredLoader } from '../../ui/centered-loader';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { formOptionsQuery, insertInvoice, invoiceKey } from './api';
import { InvoiceForm } from './invoice-form';
import { Trans, useTranslation } from 'react-i18next';
import { msg } from '../../lib/i18n';

/** /invoice/add: creates a pending invoice and opens it. */
export function InvoiceAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const options = useQuery(formOptionsQuery());
  return (
    <Page title={t('Create Invoice')}>
      {options.isError ? <ErrorAlert what={t('Could not load customers and payment profiles')} error={options.error} onRetry={() => void options.refetch()} /> : null}
      {options.isPending ? <CenteredLoader /> : null}
      {options.data && options.data.paymentProfiles.length === 0 ? (
        <Alert color="orange" variant="light">
          <Trans t={t} i18nKey={msg('Add an IBAN or QR bill payment profile for your company in <a>Settings</a> first.')} components={{ a: <Anchor component={Link} to={paths.settings.getHref()} /> }} />
        </Alert>
      ) : null}
      {options.data ? (
        <InvoiceForm
          options={options.data}
          submitLabel={t('Create Invoice')}
          onSubmit={async ({ head, items }) => {
            const invoice = await insertInvoice({ ...head, items: items.map(({ id: _id, ...item }) => item) });
            await queryClient.invalidateQueries({ queryKey: invoiceKey });
            notifications.show({ color: 'green', message: t('Invoice {{number}} created', { number: invoice.refNumber }) });
            void navigate(paths.invoiceDetail.getHref(invoice.uuid));
          }}
        />
      ) : null}
    </Page>
  );
}
