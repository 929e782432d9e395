import { Signup } from '../features/auth/signup';

export function Component() {
  return <Signup />;
}
