import { VatCodesPage } from '../features/accounting/vat-codes-page';

export function Component() {
  return <VatCodesPage />;
}
