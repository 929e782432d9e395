import { useEffect, useState } from 'react';
import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { clearLoginError, peekLoginError } from '../../lib/storage';

/** A stored login_error, shown once as a warning and then cleared (spec §2.8). */
export function LoginErrorAlert() {
  const { t } = useTranslation();
  // Read in the initializer, clear in an effect: StrictMode may run the initializer twice.
  const [message] = useState(peekLoginError);
  useEffect(() => {
    if (message) clearLoginError();
  }, [message]);
  if (!message) return null;
  return (
    <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
      {/* The stored texts are English keys (the idle sign-out's, the sign-in errors'): shown in the UI's language where translated. */}
      {t(message)}
    </Alert>
  );
}
