import { SettingsPage } from '../features/companies/settings-page';
import { EmailTemplatesCard } from '../features/messaging/templates-card';

/** Settings of the workplace, with the invoice e-mail templates (issue 15 §1) below. */
export function Component() {
  return <SettingsPage extra={<EmailTemplatesCard />} />;
}
