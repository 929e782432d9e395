import { useState, type FormEvent } from 'react';
import { Anchor, Button, Checkbox, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { errorMessage, isApiError } from '../../lib/errors';
import { instanceExists } from './api';
import { ProviderButtons } from './provider-buttons';

/** Spec §4 "Signup": instance (name entry) → tnc (terms checkbox) → sso (checkbox locked; providers). */
type SignupStep = 'instance' | 'tnc' | 'sso';

export function Signup() {
  const { t } = useTranslation();
  const [step, setStep] = useState<SignupStep>('instance');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const checkName = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setError(t('This field must be given'));
      return;
    }
    setPending(true);
    setError(null);
    try {
      await instanceExists(trimmed);
      setError(t('Instance name already taken'));
    } catch (failure) {
      // Not found means the name is free (spec §7.2).
      if (isApiError(failure, 404)) {
        setName(trimmed);
        setStep('tnc');
      } else setError(errorMessage(failure));
    } finally {
      setPending(false);
    }
  };

  const restart = () => {
    setStep('instance');
    setError(null);
  };

  return (
    <Stack gap="md">
      <Title order={1} size="h3">
        {t('Create your Bilan workplace')}
      </Title>
      <form onSubmit={(event) => void checkName(event)} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('Workplace name')}
            description={t('Usually the name of your company. Your team uses it to sign in.')}
            name="workplace"
            autoComplete="organization"
            autoFocus
            value={name}
            readOnly={step !== 'instance'}
            onChange={(event) => setName(event.currentTarget.value)}
            error={error}
          />
          {step === 'instance' ? (
            <Button type="submit" loading={pending} fullWidth>
              {t('Next')}
            </Button>
          ) : (
            <Anchor component="button" type="button" size="sm" onClick={restart} ta="left">
              {t('Choose another name')}
            </Anchor>
          )}
        </Stack>
      </form>
      {step !== 'instance' ? (
        <Checkbox
          label={
            <>
              {t('I read and agree to the')}{' '}
              <Anchor href={paths.terms.path} target="_blank" rel="noopener" inherit>
                {t('Terms and Conditions')}
              </Anchor>
            </>
          }
          checked={step === 'sso'}
          disabled={step === 'sso'}
          // Ticked and locked (spec §4), but still read as agreed, not greyed out.
          styles={{ label: { color: 'var(--mantine-color-text)' } }}
          onChange={(event) => {
            if (event.currentTarget.checked) setStep('sso');
          }}
        />
      ) : null}
      {step === 'sso' ? <ProviderButtons instance={name} isSignup /> : null}
      <Text size="sm" ta="center">
        {t('Already have a workplace?')}{' '}
        <Anchor component={Link} to={paths.login.getHref()}>
          {t('Log in')}
        </Anchor>
      </Text>
    </Stack>
  );
}
