import { InstanceLogin } from '../features/auth/instance-login';

export function Component() {
  return <InstanceLogin />;
}
