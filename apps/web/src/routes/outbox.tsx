import { OutboxPage } from '../features/messaging/outbox-page';

/** Every e-mail of the workplace with its status (issue 15 §1). */
export function Component() {
  return <OutboxPage />;
}
