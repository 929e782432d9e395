import { SupportPage } from '../features/support/support-pages';

/** /support (spec §2.2; issue 16 §2): the top bar's support icon leads here. */
export function Component() {
  return <SupportPage />;
}
