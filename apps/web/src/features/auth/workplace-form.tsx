import { useState, type FormEvent } from 'react';
import { Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { errorMessage } from '../../lib/errors';
import { instanceExists } from './api';
import { encodeLoginInstance, rememberedUser } from './instance-param';
import { LoginErrorAlert } from './login-error-alert';

/** Workplace-name entry (spec §2.8): any /login path that is not one of the others. */
export function WorkplaceForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setError(t('This field must be given'));
      return;
    }
    setPending(true);
    setError(null);
    try {
      const instance = await instanceExists(trimmed);
      const userUuid = rememberedUser(instance.uuid);
      const b64 = encodeLoginInstance(userUuid ? { ...instance, userUuid } : instance);
      await navigate(paths.loginInstance.getHref(b64));
    } catch (failure) {
      // 404 answers { err: 'Instance not found' }: the server's text goes under the input (spec §8).
      setError(errorMessage(failure));
      setPending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <Title order={1} size="h3">
          {t('Welcome to Bilan')}
        </Title>
        <LoginErrorAlert />
        <Text>{t('Enter the name of your workplace to login.')}</Text>
        <TextInput
          label={t('Workplace name')}
          name="workplace"
          autoComplete="organization"
          autoFocus
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={error}
        />
        <Button type="submit" loading={pending} fullWidth>
          {t('Next')}
        </Button>
        <Text size="sm" ta="center">
          {t('New to Bilan?')}{' '}
          <Anchor component={Link} to={paths.signup.getHref()}>
            {t('Sign up')}
          </Anchor>
        </Text>
      </Stack>
    </form>
  );
}
