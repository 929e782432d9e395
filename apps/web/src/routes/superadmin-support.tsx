import { useTranslation } from 'react-i18next';
import { SuperadminOnly } from '../features/identity/superadmin-pages';
import { SupportQueue } from '../features/support/support-pages';

/** Superadmin only (issue 16 §2); the server refuses everyone else too. */
export function Component() {
  const { t } = useTranslation();
  return (
    <SuperadminOnly title={t('Support queue')}>
      <SupportQueue />
    </SuperadminOnly>
  );
}
