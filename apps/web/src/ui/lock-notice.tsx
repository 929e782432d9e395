import { useTranslation } from 'react-i18next';
import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { formatDate } from '@bilan/domain';
import { api } from '../lib/api';

/**
 * The lock date in force, where postings are made (the entry form, the journal import, bank
 * statements): nothing dated on or before it can be posted (spec §2.2 "Lock", issue 12 §1).
 * Nothing when the books are not locked. Same query key as the lock page's list, so a new lock
 * shows here at once.
 */
export function LockNotice() {
  const { t } = useTranslation();
  const locks = useQuery({ queryKey: ['accounting', 'lock', 'list'], queryFn: () => api.get('/api/accounting/lock/list') });
  const inForce = locks.data?.locks[0];
  if (!inForce) return null;
  return (
    <Alert color="orange" variant="light" icon={<IconLock size={18} />} data-testid="lock-notice">
      {t('Books locked up to {{date}}: entries dated on or before it are refused.', { date: formatDate(inForce.lockDate) })}
    </Alert>
  );
}
