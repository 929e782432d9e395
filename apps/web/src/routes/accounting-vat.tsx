import { VatPage } from '../features/accounting/vat-page';

export function Component() {
  return <VatPage />;
}
