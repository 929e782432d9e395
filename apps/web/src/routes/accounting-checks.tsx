import { ChecksPage } from '../features/accounting/checks-page';

export function Component() {
  return <ChecksPage />;
}
