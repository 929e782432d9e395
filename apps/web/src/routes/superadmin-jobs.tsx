import { SuperadminOnly } from '../features/identity/superadmin-pages';
import { JobsOverview } from '../features/messaging/jobs-page';

/** Superadmin only (issue 15 §5); the server refuses everyone else too. */
export function Component() {
  return (
    <SuperadminOnly title="Jobs">
      <JobsOverview />
    </SuperadminOnly>
  );
}
