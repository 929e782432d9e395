import { StaffPage } from '../features/identity/staff-page';

/** /staff: members, roles and invitations of the instance (issue #3 §4). */
export function Component() {
  return <StaffPage />;
}
