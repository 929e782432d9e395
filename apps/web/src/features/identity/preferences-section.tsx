import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { numberFormats, type NumberFormat, type UiLanguage } from '@bilan/domain';
import { browserLanguage, currentLanguage, LANGUAGE_NAMES, LANGUAGES, NUMBER_FORMAT_EXAMPLES, translate } from '../../lib/i18n';
import { loadProfile, type Profile } from '../../lib/session';
import { ErrorAlert } from '../../ui/error-alert';
import { identityApi } from './api';

/**
 * Language and number format of the user (issue 17 §3), the same in every workplace. The
 * language picker starts at the shown language (the browser's until one is chosen), the format at
 * the spec's fr-CH; saving switches the UI at once.
 */
export function PreferencesSection({ profile }: { profile: Profile }) {
  const { t } = useTranslation();
  const [language, setLanguage] = useState<UiLanguage>(profile.language ?? currentLanguage());
  const [numberFormat, setNumberFormat] = useState<NumberFormat>(profile.numberFormat ?? 'fr-CH');
  const save = useMutation({
    mutationFn: () => identityApi.updatePreferences(language, numberFormat),
    onSuccess: async () => {
      // Loading the profile applies the choices (session.ts); the pages remount in a new number format.
      await loadProfile();
      notifications.show({ color: 'green', message: translate('Your language and number format were saved.') });
    },
  });
  const unchanged = language === profile.language && numberFormat === profile.numberFormat;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="sm" maw={520}>
        <Group grow align="flex-start">
          <Select
            label={t('Language')}
            data={LANGUAGES.map((code) => ({ value: code, label: LANGUAGE_NAMES[code] }))}
            value={language}
            onChange={(value) => value && setLanguage(value as UiLanguage)}
            allowDeselect={false}
            description={profile.language ? undefined : t('Until you choose, Bilan follows your browser ({{language}}).', { language: LANGUAGE_NAMES[browserLanguage()] })}
          />
          <Select
            label={t('Number format')}
            data={numberFormats.map((code) => ({ value: code, label: `${NUMBER_FORMAT_EXAMPLES[code]} (${code})` }))}
            value={numberFormat}
            onChange={(value) => value && setNumberFormat(value as NumberFormat)}
            allowDeselect={false}
          />
        </Group>
        <Text size="sm" c="dimmed">
          {t('Dates are shown as 31.12.2026 in every language. Documents such as invoices follow the language of their recipient.')}
        </Text>
        {save.error ? <ErrorAlert what={t('Could not save your language and number format')} error={save.error} /> : null}
        <Group>
          <Button type="submit" loading={save.isPending} disabled={unchanged}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
