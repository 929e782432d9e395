import { useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { IconBrandGoogle, IconBrandWindows, IconShieldCheck } from '@tabler/icons-react';
import { ssoProviderLabel, ssoProviders, type SsoProvider } from '@bilan/domain';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/errors';
import { providerUrl } from './api';

const icons: Record<SsoProvider, typeof IconBrandGoogle> = {
  google: IconBrandGoogle,
  microsoft: IconBrandWindows,
  swissid: IconShieldCheck,
};

interface ProviderButtonsProps {
  /** Instance uuid (login) or the new workplace name (signup). */
  instance: string;
  isSignup?: boolean;
  disabled?: boolean;
}

/** 'Sign in with …' for each provider: ask the server for the provider URL, then go there. */
export function ProviderButtons({ instance, isSignup = false, disabled = false }: ProviderButtonsProps) {
  const { t } = useTranslation();
  const [pending, setPending] = useState<SsoProvider | null>(null);
  const [error, setError] = useState<string | null>(null);

  const start = async (provider: SsoProvider) => {
    setPending(provider);
    setError(null);
    try {
      const { url } = await providerUrl(provider, instance, isSignup);
      window.location.assign(url);
    } catch (failure) {
      setError(errorMessage(failure));
      setPending(null);
    }
  };

  return (
    <Stack gap="xs">
      {ssoProviders.map((provider) => {
        const Icon = icons[provider];
        return (
          <Button
            key={provider}
            variant="default"
            fullWidth
            leftSection={<Icon size={18} aria-hidden />}
            loading={pending === provider}
            disabled={disabled || (pending !== null && pending !== provider)}
            onClick={() => void start(provider)}
          >
            {t('Sign in with {{provider}}', { provider: ssoProviderLabel[provider] })}
          </Button>
        );
      })}
      {error ? (
        <Text c="red" size="sm" role="alert">
          {error}
        </Text>
      ) : null}
    </Stack>
  );
}
