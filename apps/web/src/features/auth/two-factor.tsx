import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { MAX_TWO_FACTOR_ATTEMPTS } from '@bilan/domain';
import { paths } from '../../config/paths';
import { ApiError } from '../../lib/api';
import { errorMessage } from '../../lib/errors';
import { msg } from '../../lib/i18n';
import { signIn } from '../../lib/session';
import { NumericInput } from '../../ui/numeric-input';
import { isTwoFactorRequired, verifyTwoFactor } from './api';
import { rememberUser } from './instance-param';

const BLOCKED = msg(
  'Due to multiple login attempts, your account has been temporarily blocked for security reasons. Please contact our support team for assistance in restoring access. Thank you for your cooperation.',
);

/** /login/2fa/{payload}: numeric two-factor code (spec §2.8, §5, §8). */
export function TwoFactor() {
  const { t } = useTranslation();
  const { payload } = useParams();
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [attempts, setAttempts] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [blockedByServer, setBlockedByServer] = useState(false);
  const blocked = blockedByServer || attempts > MAX_TWO_FACTOR_ATTEMPTS;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // A non-numeric code is ignored and no call is made (spec §5).
    if (!payload || !/^\d+$/.test(code) || blocked) return;
    setPending(true);
    setError(null);
    try {
      const result = await verifyTwoFactor(code, payload);
      if (isTwoFactorRequired(result)) {
        await navigate(paths.twoFactor.getHref(result.payload), { replace: true });
        return;
      }
      rememberUser(result.instance.uuid, result.user.uuid);
      await signIn(result.token);
      await navigate(paths.home.getHref(), { replace: true });
    } catch (failure) {
      const body = failure instanceof ApiError && typeof failure.body === 'object' && failure.body !== null ? (failure.body as Record<string, unknown>) : {};
      if (body.blocked === true) {
        setBlockedByServer(true);
        return;
      }
      // A wrong code: the server counts per account (a reload does not reset it). Anything else
      // (an expired sign-in, the network) is not an attempt and is shown as it is.
      if (failure instanceof ApiError && failure.status === 400) {
        const attempt = typeof body.attempt === 'number' ? body.attempt : attempts + 1;
        setAttempts(attempt);
        setError(`${errorMessage(failure)} ${t('Attempt {{attempt}}/{{max}}', { attempt, max: MAX_TWO_FACTOR_ATTEMPTS })}`);
      } else {
        setError(errorMessage(failure));
      }
      setCode('');
    } finally {
      setPending(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <Title order={1} size="h3">
          {t('Two-factor authentication')}
        </Title>
        <Text>{t('Enter the code shown by your authenticator app.')}</Text>
        {blocked ? (
          <>
            <Alert color="red" variant="light" role="alert">
              {t(BLOCKED)}
            </Alert>
            <Button component={Link} to={paths.loginSupport.getHref()} variant="light" fullWidth>
              {t('Contact support')}
            </Button>
          </>
        ) : (
          <>
            <NumericInput
              label={t('Authentication code')}
              name="code"
              autoComplete="one-time-code"
              autoFocus
              maxLength={8}
              value={code}
              onChange={setCode}
              error={error}
            />
            <Button type="submit" loading={pending} disabled={!/^\d+$/.test(code)} fullWidth>
              {t('Verify')}
            </Button>
          </>
        )}
        <Anchor component={Link} to={paths.login.getHref()} size="sm" ta="center">
          {t('Go Back')}
        </Anchor>
      </Stack>
    </form>
  );
}
