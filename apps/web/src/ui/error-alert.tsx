import { useTranslation } from 'react-i18next';
import { Alert, Button, Group } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorMessage } from '../lib/errors';

interface ErrorAlertProps {
  /** What could not be done, e.g. 'Could not load the trial balance'. */
  what: string;
  error: unknown;
  onRetry?: () => void;
}

/** 'Could not load the trial balance: <server message>' with an optional retry. */
export function ErrorAlert({ what, error, onRetry }: ErrorAlertProps) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <span>
          {what}: {errorMessage(error)}
        </span>
        {onRetry ? (
          <Button size="compact-sm" variant="white" color="red" onClick={onRetry}>
            {t('Try again')}
          </Button>
        ) : null}
      </Group>
    </Alert>
  );
}
