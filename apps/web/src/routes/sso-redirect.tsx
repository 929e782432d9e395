import { SsoRedirect } from '../features/auth/sso-redirect';

export function Component() {
  return <SsoRedirect />;
}
