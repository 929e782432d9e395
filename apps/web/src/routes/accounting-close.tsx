import { ClosingPage } from '../features/accounting/closing-page';

export function Component() {
  return <ClosingPage />;
}
