import { LetterheadCard } from '../features/companies/letterhead-card';
import { SettingsPage } from '../features/companies/settings-page';
import { EmailTemplatesCard } from '../features/messaging/templates-card';

/** Settings of the workplace, with the letterhead (issue 15 §6) and the invoice e-mail templates (issue 15 §1) below. */
export function Component() {
  return (
    <SettingsPage
      extra={
        <>
          <LetterheadCard />
          <EmailTemplatesCard />
        </>
      }
    />
  );
}
