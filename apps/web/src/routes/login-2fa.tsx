import { TwoFactor } from '../features/auth/two-factor';

export function Component() {
  return <TwoFactor />;
}
