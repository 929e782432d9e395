import { Dashboard } from '../features/dashboard/dashboard';

export function Component() {
  return <Dashboard />;
}
