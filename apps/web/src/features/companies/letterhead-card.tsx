import { useState } from 'react';
import { Button, FileButton, Group, Image, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { serverFieldErrors } from '../../lib/errors';
import { useSession } from '../../lib/session';
import { ErrorAlert } from '../../ui/error-alert';
import { TableSkeleton } from '../../ui/table-skeleton';
import { canAdmin } from './labels';
import { letterheadQuery, updateLetterhead, type Letterhead } from './api';
import { useTranslation } from 'react-i18next';

const MAX_LOGO_KB = 512;
const EMAIL_EXAMPLE = 'info@muster.ch';
const WEBSITE_EXAMPLE = 'www.muster.ch';
/** The letterhead's fields with their own messages. */
const FIELDS = ['logo', 'phone', 'email', 'website'];

/** A file's bytes as base64 (the update's `logo.data`). */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function LetterheadForm({ letterhead, editable }: { letterhead: Letterhead; editable: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [phone, setPhone] = useState(letterhead.phone);
  const [email, setEmail] = useState(letterhead.email);
  const [website, setWebsite] = useState(letterhead.website);
  const [logo, setLogo] = useState<{ type: string; data: string; name: string } | null | undefined>(undefined);
  const [fileError, setFileError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () => updateLetterhead({ phone, email, website, ...(logo === undefined ? {} : { logo: logo && { type: logo.type, data: logo.data } }) }),
    onSuccess: async (saved) => {
      queryClient.setQueryData(letterheadQuery().queryKey, saved);
      setLogo(undefined);
      notifications.show({ color: 'green', message: t('Letterhead saved: new documents print it.') });
    },
  });
  const fields = serverFieldErrors(save.error);
  const choose = async (file: File | null) => {
    setFileError(null);
    if (!file) return;
    if (file.size > MAX_LOGO_KB * 1024) return setFileError(t('{{name}} has {{size}} KB; a logo may have at most {{max}} KB', { name: file.name, size: Math.ceil(file.size / 1024), max: MAX_LOGO_KB }));
    setLogo({ type: file.type, data: await base64Of(file), name: file.name });
  };
  const preview = logo ? `data:${logo.type};base64,${logo.data}` : logo === null ? null : (letterhead.logo?.dataUrl ?? null);

  return (
    <form
      aria-label={t('Letterhead')}
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="sm">
        <Group align="flex-start" gap="lg">
          <Stack gap={6} w={240}>
            <Text size="xs" c="dimmed">{t('Logo (top right of invoices, quotes, credit notes and reminders)')}</Text>
            {preview ? (
              <Image src={preview} alt={t('Logo')} h={70} w="auto" fit="contain" style={{ alignSelf: 'flex-start' }} />
            ) : (
              <Text size="sm" c="dimmed">{t('No logo')}</Text>
            )}
            {editable ? (
              <Group gap="xs">
                <FileButton onChange={(file) => void choose(file)} accept="image/png,image/jpeg">
                  {(props) => (
                    <Button variant="default" size="xs" {...props}>
                      {preview ? t('Replace logo') : t('Upload logo')}
                    </Button>
                  )}
                </FileButton>
                {preview ? (
                  <Button variant="subtle" color="red" size="xs" onClick={() => setLogo(null)}>
                    {t('Remove logo')}
                  </Button>
                ) : null}
              </Group>
            ) : null}
            <Text size="xs" c={fileError || fields.logo ? 'red' : 'dimmed'}>
              {fileError ??
                fields.logo ??
                (logo ? t('{{name}}: saved with the letterhead', { name: logo.name }) : t('PNG or JPEG, at most {{max}} KB', { max: MAX_LOGO_KB }))}
            </Text>
          </Stack>
          <SimpleGrid cols={{ base: 1, sm: 3 }} style={{ flex: 1 }}>
            <TextInput label={t('Phone')} value={phone} onChange={(e) => setPhone(e.currentTarget.value)} error={fields.phone} readOnly={!editable} placeholder="+41 44 123 45 67" />
            <TextInput label="E-mail" value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={fields.email} readOnly={!editable} placeholder={EMAIL_EXAMPLE} />
            <TextInput label={t('Website')} value={website} onChange={(e) => setWebsite(e.currentTarget.value)} error={fields.website} readOnly={!editable} placeholder={WEBSITE_EXAMPLE} />
          </SimpleGrid>
        </Group>
        {save.isError && !FIELDS.some((field) => fields[field]) ? <ErrorAlert what={t('Could not save the letterhead')} error={save.error} /> : null}
        {editable ? (
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {t('Save letterhead')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </form>
  );
}

/** Settings → Letterhead (issue 15 §6): the logo and contact block the instance's documents print. */
export function LetterheadCard() {
  const { t } = useTranslation();
  const { profile } = useSession();
  const letterhead = useQuery(letterheadQuery());
  return (
    <Paper withBorder p="lg">
      <Title order={2} size="h4" mb="md">
        {t('Letterhead')}
      </Title>
      {letterhead.isError ? <ErrorAlert what={t('Could not load the letterhead')} error={letterhead.error} onRetry={() => void letterhead.refetch()} /> : null}
      {letterhead.isPending ? <TableSkeleton rows={2} /> : null}
      {letterhead.data ? <LetterheadForm letterhead={letterhead.data} editable={canAdmin(profile?.permissions)} /> : null}
    </Paper>
  );
}
