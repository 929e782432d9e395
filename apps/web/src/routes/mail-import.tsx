import { MailImportPage } from '../features/payables/mail-import-page';

export function Component() {
  return <MailImportPage />;
}
