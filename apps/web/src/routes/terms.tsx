import { TermsPage } from '../features/meta/terms-page';

export function Component() {
  return <TermsPage />;
}
