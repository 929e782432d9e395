import { Anchor, Button, Card, List, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ssoProviderLabel, ssoProviders, type SsoProvider } from '@bilan/domain';
import { paths } from '../../config/paths';
import { Page } from '../../ui/page';

/** Where each identity provider lets a person change their password and sign-in security. */
const PROVIDER_SECURITY_PAGES: Record<SsoProvider, string> = {
  google: 'https://myaccount.google.com/security',
  microsoft: 'https://account.microsoft.com/security',
  swissid: 'https://account.swissid.ch',
};

/**
 * /password (spec §2.2 'password page'): Bilan signs in through identity providers and passkeys and
 * keeps no password (decision 025), so this page says where the password lives and what Bilan
 * itself adds to the sign-in.
 */
export function PasswordPage() {
  const { t } = useTranslation();
  return (
    <Page title={t('Password')}>
      <Card withBorder radius="md" padding="lg" maw={760}>
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('Bilan keeps no password')}
          </Title>
          <Text>
            {t(
              'You sign in to Bilan with your Google, Microsoft or SwissID account. Your password is the one of that account: change it, or reset a forgotten one, where the account is kept.',
            )}
          </Text>
          <List spacing="xs">
            {ssoProviders.map((provider) => (
              <List.Item key={provider}>
                <Anchor href={PROVIDER_SECURITY_PAGES[provider]} target="_blank" rel="noopener noreferrer">
                  {t('{{provider}} account security', { provider: ssoProviderLabel[provider] })} <IconExternalLink size={14} aria-hidden />
                </Anchor>
              </List.Item>
            ))}
          </List>
          <Text size="sm" c="dimmed">
            {t('If your company runs its own sign-in service (for example Microsoft Entra ID), your administrator manages the password there.')}
          </Text>
        </Stack>
      </Card>
      <Card withBorder radius="md" padding="lg" maw={760}>
        <Stack gap="sm" align="flex-start">
          <Title order={2} size="h4">
            {t('Make your sign-in stronger in Bilan')}
          </Title>
          <Text>
            {t(
              "A passkey lets you sign in with your device's fingerprint, face or PIN instead of going through the provider. Two-factor authentication asks for a code from an authenticator app after the provider.",
            )}
          </Text>
          <Button component={Link} to={paths.profile.getHref()} variant="light">
            {t('Passkeys and two-factor in your profile')}
          </Button>
        </Stack>
      </Card>
    </Page>
  );
}
