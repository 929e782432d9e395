import { NotFound } from '../ui/not-found';

export function Component() {
  return <NotFound />;
}
