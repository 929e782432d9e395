import { SettingsPage } from '../features/companies/settings-page';

export function Component() {
  return <SettingsPage />;
}
