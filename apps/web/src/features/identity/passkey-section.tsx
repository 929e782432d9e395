import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { IconCheck, IconFingerprint } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { startRegistration } from '@simplewebauthn/browser';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/errors';
import { passkeyApi } from '../../lib/passkey-api';

/** Webauthn on the profile (spec §2.6, §4): 'Register' shows 'Webauthn Set!' once the server reports a valid signature. */
export function PasskeySection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: ['profile', 'passkeys'], queryFn: passkeyApi.list });
  const [set, setSet] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const register = async () => {
    setPending(true);
    setError(null);
    try {
      const start = await passkeyApi.registerStart();
      const credential = await startRegistration({ optionsJSON: start.options });
      const result = await passkeyApi.registerFinish({
        jwt: start.jwt,
        credentialId: credential.id,
        attestationObject: credential.response.attestationObject,
        clientDataJSON: credential.response.clientDataJSON,
        transports: credential.response.transports ?? [],
      });
      if (result.isValidSignature) setSet(true);
      else setError(t('The passkey could not be verified.'));
      void queryClient.invalidateQueries({ queryKey: ['profile', 'passkeys'] });
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setPending(false);
    }
  };

  const count = list.data?.data.length ?? 0;
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {t("Sign in with your device's fingerprint, face or screen lock, or a security key.")}
        {count ? ` ${t('You have {{count}} passkeys.', { count })}` : ''}
      </Text>
      <Group gap="sm">
        {/* Spec §2.6: the Register button itself reads 'Webauthn Set!' once the server reports a valid signature. */}
        <Button
          leftSection={set ? <IconCheck size={18} /> : <IconFingerprint size={18} />}
          onClick={() => void register()}
          loading={pending}
          color={set ? 'teal' : undefined}
          variant={set ? 'light' : 'filled'}
        >
          {set ? t('Webauthn Set!') : t('Register')}
        </Button>
      </Group>
      {error ? (
        <Text c="red" size="sm" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}
