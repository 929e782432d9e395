import { Alert } from '@mantine/core';
import { IconAlertCircle, IconLock } from '@tabler/icons-react';
import { formatDate } from '@bilan/domain';
import { useTranslation } from 'react-i18next';
import { errorMessage, isApiError } from '../../lib/errors';

/**
 * The server's lock sentence ("the date 2025-02-15 is on or before the lock date 2025-03-31") as a
 * sentence of the page: capitalised, Swiss dates (15.02.2025), a full stop.
 */
export function lockSentence(message: string): string {
  const swiss = message.replace(/\b(\d{4}-\d{2}-\d{2})\b/g, (iso) => formatDate(iso));
  const sentence = swiss.charAt(0).toUpperCase() + swiss.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

const isLockRefusal = (error: unknown) =>
  isApiError(error, 409) && typeof error.body === 'object' && error.body !== null && (error.body as { code?: unknown }).code === 'period_locked';

/**
 * A failed write. A refusal for the lock date (409 `period_locked`, docs/api.md) gets its own title
 * saying what happened and what to do; any other failure (another 409 such as a document posting)
 * says what could not be done and the server's reason.
 */
export function WriteError({ error, what }: { error: unknown; what: string }) {
  const { t } = useTranslation();
  if (isLockRefusal(error)) {
    return (
      <Alert color="orange" variant="light" icon={<IconLock size={18} />} title={t('The books are locked for this date')} role="alert">
        {lockSentence(errorMessage(error))} {t('Choose a date after the lock date, or ask an administrator to move the lock.')}
      </Alert>
    );
  }
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
      {what}: {errorMessage(error)}
    </Alert>
  );
}
