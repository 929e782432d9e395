import { useState } from 'react';
import { Alert, Button, Divider, Stack, Text, Title } from '@mantine/core';
import { IconFingerprint } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { paths } from '../../config/paths';
import { msg } from '../../lib/i18n';
import { signIn } from '../../lib/session';
import { rememberUser } from './instance-param';
import { signInWithPasskey } from './passkey-login';
import { decodeLoginInstance } from './instance-param';
import { LoginErrorAlert } from './login-error-alert';
import { ProviderButtons } from './provider-buttons';

/** The spec's messages (§2.8). */
const UNREACHABLE = msg('resource could not be reached');
const BAD_URL = msg('Issue with URL');

/** `message` is an English text, shown through t(). */
function LoginProblem({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Alert color="red" variant="light" role="alert">
        {t(message)}
      </Alert>
      <Button component={Link} to={paths.login.getHref()} variant="default">
        {t('Go Back')}
      </Button>
    </Stack>
  );
}

/** /login/{b64Instance}: sign in to a named workplace (spec §2.8). */
export function InstanceLogin() {
  const { t } = useTranslation();
  const { b64Instance } = useParams();
  const navigate = useNavigate();
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  const [passkeyPending, setPasskeyPending] = useState(false);

  if (!b64Instance) return <LoginProblem message={UNREACHABLE} />;
  const instance = decodeLoginInstance(b64Instance);
  if (!instance) return <LoginProblem message={BAD_URL} />;

  const passkey = async (userUuid: string) => {
    setPasskeyPending(true);
    setPasskeyError(null);
    try {
      const result = await signInWithPasskey(userUuid, instance.uuid);
      if ('action' in result) {
        await navigate(paths.twoFactor.getHref(result.payload), { replace: true });
        return;
      }
      rememberUser(result.instance.uuid, result.user.uuid);
      await signIn(result.token);
      await navigate(paths.home.getHref(), { replace: true });
    } catch (error) {
      // The spec's passkey errors are marked for translation; the server's text shows as it is.
      setPasskeyError(t((error as Error).message));
    } finally {
      setPasskeyPending(false);
    }
  };

  return (
    <Stack gap="md">
      <Title order={1} size="h3">
        {t('Login to {{name}}', { name: instance.name })}
      </Title>
      <LoginErrorAlert />
      <ProviderButtons instance={instance.uuid} />
      {instance.userUuid ? (
        <>
          <Divider label={t('or')} labelPosition="center" />
          <Button
            variant="light"
            fullWidth
            leftSection={<IconFingerprint size={18} aria-hidden />}
            loading={passkeyPending}
            onClick={() => void passkey(instance.userUuid!)}
          >
            {t('Sign in with Passkey')}
          </Button>
          {passkeyError ? (
            <Alert color="red" variant="light" role="alert">
              {passkeyError}
            </Alert>
          ) : null}
        </>
      ) : null}
      <Button component={Link} to={paths.login.getHref()} variant="subtle">
        {t('Go Back')}
      </Button>
      <Text size="xs" c="dimmed" ta="center">
        {t('You will be sent to the provider you choose and brought back here.')}
      </Text>
    </Stack>
  );
}
