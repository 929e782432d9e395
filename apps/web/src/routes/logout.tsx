import { Logout } from '../features/auth/logout';

export function Component() {
  return <Logout />;
}
