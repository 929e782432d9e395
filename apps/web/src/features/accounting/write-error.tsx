import { Alert } from '@mantine/core';
import { IconAlertCircle, IconLock } from '@tabler/icons-react';
import { errorMessage, isApiError } from '../../lib/errors';

/**
 * A failed write. 409 is a state conflict (docs/api.md): for entries it is the lock date, so it
 * gets its own title saying what happened and what to do.
 */
export function WriteError({ error, what }: { error: unknown; what: string }) {
  if (isApiError(error, 409)) {
    return (
      <Alert color="orange" variant="light" icon={<IconLock size={18} />} title="The books are locked for this date" role="alert">
        {errorMessage(error)} Choose a date after the lock date, or ask an administrator to move the lock.
      </Alert>
    );
  }
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
      {what}: {errorMessage(error)}
    </Alert>
  );
}
