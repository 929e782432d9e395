import { LocksPage } from '../features/accounting/locks-page';

export function Component() {
  return <LocksPage />;
}
