import { useTranslation } from 'react-i18next';
import { SuperadminOnly } from '../features/identity/superadmin-pages';
import { JobsOverview } from '../features/messaging/jobs-page';

/** Superadmin only (issue 15 §5); the server refuses everyone else too. */
export function Component() {
  const { t } = useTranslation();
  return (
    <SuperadminOnly title={t('Jobs')}>
      <JobsOverview />
    </SuperadminOnly>
  );
}
