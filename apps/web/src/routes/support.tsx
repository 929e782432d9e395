import { paths } from '../config/paths';
import { NotAvailable } from '../ui/not-available';

/** Built by a later issue; the route exists so links and bookmarks already work. */
export function Component() {
  return <NotAvailable label={paths.support.label} />;
}
