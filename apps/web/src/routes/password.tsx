import { PasswordPage } from '../features/identity/password-page';

export function Component() {
  return <PasswordPage />;
}
