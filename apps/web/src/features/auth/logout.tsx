import { useEffect } from 'react';
import { Loader, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { endSession, getSession, storedProfile } from '../../lib/session';
import { logout } from './api';
import { encodeLoginInstance } from './instance-param';

let loggingOut = false;

/** /logout: call logout, forget token and profile, back to the workplace's login (spec §2.8). */
export function Logout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    if (loggingOut) return;
    loggingOut = true;
    const profile = getSession().profile ?? storedProfile();
    void (async () => {
      try {
        await logout();
      } catch (error) {
        // The cookie is cleared by the server when it can; locally we sign out regardless.
        console.warn('logout call failed', error);
      }
      endSession();
      queryClient.clear();
      loggingOut = false;
      const target = profile
        ? paths.loginInstance.getHref(
            encodeLoginInstance({ uuid: profile.instance.uuid, name: profile.instance.name, userUuid: profile.uuid }),
          )
        : paths.login.getHref();
      await navigate(target, { replace: true });
    })();
  }, [navigate, queryClient]);

  return (
    <Stack align="center" gap="sm" py="md" aria-busy="true">
      <Loader aria-label={t('Signing you out')} />
      <Text>{t('Signing you out…')}</Text>
    </Stack>
  );
}
