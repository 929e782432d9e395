import { ProfilePage } from '../features/identity/profile-page';

/** /profile (spec §2.6). */
export function Component() {
  return <ProfilePage />;
}
