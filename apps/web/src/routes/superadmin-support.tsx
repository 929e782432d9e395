import { SuperadminOnly } from '../features/identity/superadmin-pages';
import { SupportQueue } from '../features/support/support-pages';

/** Superadmin only (issue 16 §2); the server refuses everyone else too. */
export function Component() {
  return (
    <SuperadminOnly title="Support queue">
      <SupportQueue />
    </SuperadminOnly>
  );
}
