import { QuotesPage } from '../features/quotes/quote-pages';

export function Component() {
  return <QuotesPage />;
}
