import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Code, Group, Image, Stack, Text } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import QRCode from 'qrcode';
import { useTranslation } from 'react-i18next';
import { MAX_TWO_FACTOR_ATTEMPTS } from '@bilan/domain';
import { ApiError } from '../../lib/api';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { endSession } from '../../lib/session';
import { storeLoginError } from '../../lib/storage';
import { ErrorAlert } from '../../ui/error-alert';
import { NumericInput } from '../../ui/numeric-input';
import { identityApi } from './api';
import { QR_OPTIONS } from './qr';


type Edit =
  /** Setting up: the proposed secret url and its QR code. */
  | { name: 'edit-set'; secretUrl: string; qr: string }
  | { name: 'edit-unset' };

/**
 * Two-factor settings (spec §4): initial state from the status query; unset → edit ('set 2FA'
 * fetches the secret url, shown as a QR code) → set after a valid code; set → edit (Disable) →
 * unset after a valid code. A non-numeric code makes no call (spec §5).
 */
export function TwoFactorSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: ['profile', '2fa'], queryFn: identityApi.twoFactorStatus });
  const [edit, setEdit] = useState<Edit | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const setStatus = (value: boolean) => queryClient.setQueryData(['profile', '2fa'], { status: value });

  const startSet = async () => {
    setPending(true);
    setError(null);
    try {
      const { url } = await identityApi.twoFactorUrl();
      const qr = await QRCode.toDataURL(url, QR_OPTIONS);
      setCode('');
      setEdit({ name: 'edit-set', secretUrl: url, qr });
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setPending(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code) || !edit) return;
    setPending(true);
    setError(null);
    try {
      if (edit.name === 'edit-set') {
        await identityApi.twoFactorSet(edit.secretUrl, code);
        setStatus(true);
      } else {
        await identityApi.twoFactorUnset(code);
        setStatus(false);
      }
      setEdit(null);
      setCode('');
    } catch (failure) {
      const body = failure instanceof ApiError && typeof failure.body === 'object' && failure.body !== null ? (failure.body as Record<string, unknown>) : {};
      // Too many wrong codes while disabling: the server blocked the account and ended its
      // sessions; the login page shows why (spec §8).
      if (body.blocked === true && typeof body.error === 'string') {
        storeLoginError(body.error);
        endSession();
        return;
      }
      const message = serverFieldErrors(failure).code ?? errorMessage(failure);
      // Wrong codes when disabling count toward the same block as at sign-in (spec §8 " Attempt n/5").
      setError(typeof body.attempt === 'number' ? `${message} ${t('Attempt {{attempt}}/{{max}}', { attempt: body.attempt, max: MAX_TWO_FACTOR_ATTEMPTS })}` : message);
    } finally {
      setPending(false);
    }
  };

  const cancel = () => {
    setError(null);
    setCode('');
    setEdit(null);
  };

  if (status.isLoading) return <Text c="dimmed">{t('Loading…')}</Text>;
  if (status.error || !status.data) {
    return <ErrorAlert what={t('Could not load the two-factor status')} error={status.error} onRetry={() => void status.refetch()} />;
  }

  if (!edit) {
    const isSet = status.data.status;
    return (
      <Stack gap="xs">
        <Group gap="sm">
          {isSet ? (
            <Badge color="teal" variant="light" leftSection={<IconShieldCheck size={14} />}>
              {t('2FA is set')}
            </Badge>
          ) : (
            <Badge color="gray" variant="light">
              {t('2FA is not set')}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {isSet ? t('Signing in asks for a code of your authenticator app.') : t('Protect your account with a code of an authenticator app at each sign-in.')}
        </Text>
        {error ? (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        ) : null}
        <Group>
          {isSet ? (
            <Button variant="default" color="red" onClick={() => setEdit({ name: 'edit-unset' })}>
              {t('Disable')}
            </Button>
          ) : (
            <Button onClick={() => void startSet()} loading={pending}>
              {t('set 2FA')}
            </Button>
          )}
        </Group>
      </Stack>
    );
  }

  const state = edit;
  const secret = state.name === 'edit-set' ? new URL(state.secretUrl).searchParams.get('secret') : null;
  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm" maw={420}>
        {state.name === 'edit-set' ? (
          <>
            <Text size="sm">{t('Scan the code with your authenticator app, then enter the 6-digit code it shows.')}</Text>
            <Image src={state.qr} alt={t('QR code of the two-factor secret')} w={256} h={256} fit="contain" />
            <Text size="xs" c="dimmed">
              {t('Or enter the key by hand:')} <Code data-testid="totp-secret">{secret}</Code>
            </Text>
          </>
        ) : (
          <Text size="sm">{t('Enter a current code of your authenticator app to disable two-factor authentication.')}</Text>
        )}
        <NumericInput
          label={t('Authentication code')}
          name="code"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={setCode}
          error={error}
        />
        <Group>
          <Button type="submit" loading={pending} disabled={!/^\d{6}$/.test(code)} color={state.name === 'edit-unset' ? 'red' : undefined}>
            {state.name === 'edit-set' ? t('Verify') : t('Disable 2FA')}
          </Button>
          <Button variant="subtle" onClick={cancel}>
            {t('Cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
