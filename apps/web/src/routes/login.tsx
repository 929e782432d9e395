import { WorkplaceForm } from '../features/auth/workplace-form';

export function Component() {
  return <WorkplaceForm />;
}
