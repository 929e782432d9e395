import { Outlet, ScrollRestoration } from 'react-router';
import { useActionLog } from '../features/shell/action-log';

/** Wraps every route: page-view tracking (spec §2.10) and scroll restoration. */
export function RootLayout() {
  useActionLog();
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
