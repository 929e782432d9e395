import { Alert } from '@mantine/core';
import { IconAlertCircle, IconLock } from '@tabler/icons-react';
import { errorMessage, isApiError } from '../../lib/errors';
import { useTranslation } from 'react-i18next';

/** A failed invoice write; 409 is a state conflict (status transition or lock date) with its server text. */
export function WriteError({ error, what }: { error: unknown; what: string }) {
  const { t } = useTranslation();
  if (isApiError(error, 409)) {
    return (
      <Alert color="orange" variant="light" icon={<IconLock size={18} />} title={t('Not possible now')} role="alert">
        {errorMessage(error)}
      </Alert>
    );
  }
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
      {what}: {errorMessage(error)}
    </Alert>
  );
}
