import { useEffect, useState } from 'react';
import { Alert, Button, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { paths } from '../../config/paths';
import { signIn } from '../../lib/session';
import { storeLoginError } from '../../lib/storage';
import { finishSso, isTwoFactorRequired } from './api';
import { rememberUser } from './instance-param';
import { checkSsoReturn } from './sso-check';

/** A code can be exchanged once; StrictMode's second effect run must not send it again. */
const handled = new Set<string>();

/** /sso/{provider}/redirect?code&state&iss: finish single sign-on (spec §4, §5). */
export function SsoRedirect() {
  const { t } = useTranslation();
  const { provider } = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  const [check] = useState(() => checkSsoReturn(provider, new URLSearchParams(search)));

  useEffect(() => {
    if (!check.ok || handled.has(search)) return;
    handled.add(search);
    void (async () => {
      try {
        const result = await finishSso(check.provider, search);
        if (isTwoFactorRequired(result)) {
          await navigate(paths.twoFactor.getHref(result.payload), { replace: true });
          return;
        }
        rememberUser(result.instance.uuid, result.user.uuid);
        await signIn(result.token);
        await navigate(paths.home.getHref(), { replace: true });
      } catch {
        storeLoginError(t('Could not log you in'));
        await navigate(paths.login.getHref(), { replace: true });
      }
    })();
  }, [check, search, navigate, t]);

  if (!check.ok) {
    return (
      <Stack gap="md">
        <Alert color="red" variant="light" role="alert">
          {t(check.message)}
        </Alert>
        <Button component={Link} to={paths.login.getHref()} variant="default">
          {t('Go Back')}
        </Button>
      </Stack>
    );
  }
  return (
    <Stack align="center" gap="sm" py="md" aria-busy="true">
      <Loader aria-label={t('Signing you in')} />
      <Text>{t('Signing you in…')}</Text>
    </Stack>
  );
}
