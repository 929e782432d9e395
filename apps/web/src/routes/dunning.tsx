import { DunningPage } from '../features/dunning/dunning-page';

export function Component() {
  return <DunningPage />;
}
