import { LogsPage } from '../features/identity/superadmin-pages';

/** Superadmin only (spec §2.6 "Superadmin links"); the server refuses everyone else too. */
export function Component() {
  return <LogsPage />;
}
