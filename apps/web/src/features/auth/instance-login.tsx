import { useState } from 'react';
import { Alert, Button, Divider, Stack, Text, Title } from '@mantine/core';
import { IconFingerprint, IconInfoCircle } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { paths } from '../../config/paths';
import { decodeLoginInstance } from './instance-param';
import { LoginErrorAlert } from './login-error-alert';
import { ProviderButtons } from './provider-buttons';

function LoginProblem({ message }: { message: string }) {
  return (
    <Stack gap="md">
      <Alert color="red" variant="light" role="alert">
        {message}
      </Alert>
      <Button component={Link} to={paths.login.getHref()} variant="default">
        Go Back
      </Button>
    </Stack>
  );
}

/** /login/{b64Instance}: sign in to a named workplace (spec §2.8). */
export function InstanceLogin() {
  const { b64Instance } = useParams();
  const [passkeyNote, setPasskeyNote] = useState(false);

  if (!b64Instance) return <LoginProblem message="resource could not be reached" />;
  const instance = decodeLoginInstance(b64Instance);
  if (!instance) return <LoginProblem message="Issue with URL" />;

  return (
    <Stack gap="md">
      <Title order={1} size="h3">
        Login to {instance.name}
      </Title>
      <LoginErrorAlert />
      <ProviderButtons instance={instance.uuid} />
      {instance.userUuid ? (
        <>
          <Divider label="or" labelPosition="center" />
          <Button
            variant="light"
            fullWidth
            leftSection={<IconFingerprint size={18} aria-hidden />}
            onClick={() => setPasskeyNote(true)}
          >
            Sign in with Passkey
          </Button>
          {passkeyNote ? (
            <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
              Passkeys arrive soon
            </Alert>
          ) : null}
        </>
      ) : null}
      <Button component={Link} to={paths.login.getHref()} variant="subtle">
        Go Back
      </Button>
      <Text size="xs" c="dimmed" ta="center">
        You will be sent to the provider you choose and brought back here.
      </Text>
    </Stack>
  );
}
