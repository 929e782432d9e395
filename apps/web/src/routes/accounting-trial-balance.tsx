import { TrialBalancePage } from '../features/accounting/trial-balance-page';

export function Component() {
  return <TrialBalancePage />;
}
