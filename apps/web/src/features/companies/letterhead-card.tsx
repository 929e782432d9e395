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

const MAX_LOGO_KB = 512;

/** A file's bytes as base64 (the update's `logo.data`). */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function LetterheadForm({ letterhead, editable }: { letterhead: Letterhead; editable: boolean }) {
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
      notifications.show({ color: 'green', message: 'Letterhead saved: new documents print it.' });
    },
  });
  const fields = serverFieldErrors(save.error);
  const choose = async (file: File | null) => {
    setFileError(null);
    if (!file) return;
    if (file.size > MAX_LOGO_KB * 1024) return setFileError(`${file.name} has ${Math.ceil(file.size / 1024)} KB; a logo may have at most ${MAX_LOGO_KB} KB`);
    setLogo({ type: file.type, data: await base64Of(file), name: file.name });
  };
  const preview = logo ? `data:${logo.type};base64,${logo.data}` : logo === null ? null : (letterhead.logo?.dataUrl ?? null);

  return (
    <form
      aria-label="Letterhead"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <Stack gap="sm">
        <Group align="flex-start" gap="lg">
          <Stack gap={6} w={240}>
            <Text size="xs" c="dimmed">Logo (top right of invoices, quotes, credit notes and reminders)</Text>
            {preview ? (
              <Image src={preview} alt="Logo" h={70} w="auto" fit="contain" style={{ alignSelf: 'flex-start' }} />
            ) : (
              <Text size="sm" c="dimmed">No logo</Text>
            )}
            {editable ? (
              <Group gap="xs">
                <FileButton onChange={(file) => void choose(file)} accept="image/png,image/jpeg">
                  {(props) => (
                    <Button variant="default" size="xs" {...props}>
                      {preview ? 'Replace logo' : 'Upload logo'}
                    </Button>
                  )}
                </FileButton>
                {preview ? (
                  <Button variant="subtle" color="red" size="xs" onClick={() => setLogo(null)}>
                    Remove logo
                  </Button>
                ) : null}
              </Group>
            ) : null}
            <Text size="xs" c={fileError || fields.logo ? 'red' : 'dimmed'}>
              {fileError ?? fields.logo ?? (logo ? `${logo.name}: saved with the letterhead` : `PNG or JPEG, at most ${MAX_LOGO_KB} KB`)}
            </Text>
          </Stack>
          <SimpleGrid cols={{ base: 1, sm: 3 }} style={{ flex: 1 }}>
            <TextInput label="Phone" value={phone} onChange={(e) => setPhone(e.currentTarget.value)} error={fields.phone} readOnly={!editable} placeholder="+41 44 123 45 67" />
            <TextInput label="E-mail" value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={fields.email} readOnly={!editable} placeholder="info@muster.ch" />
            <TextInput label="Website" value={website} onChange={(e) => setWebsite(e.currentTarget.value)} error={fields.website} readOnly={!editable} placeholder="www.muster.ch" />
          </SimpleGrid>
        </Group>
        {save.isError && !['logo', 'phone', 'email', 'website'].some((field) => fields[field]) ? <ErrorAlert what="Could not save the letterhead" error={save.error} /> : null}
        {editable ? (
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              Save letterhead
            </Button>
          </Group>
        ) : null}
      </Stack>
    </form>
  );
}

/** Settings → Letterhead (issue 15 §6): the logo and contact block the instance's documents print. */
export function LetterheadCard() {
  const { profile } = useSession();
  const letterhead = useQuery(letterheadQuery());
  return (
    <Paper withBorder p="lg">
      <Title order={2} size="h4" mb="md">
        Letterhead
      </Title>
      {letterhead.isError ? <ErrorAlert what="Could not load the letterhead" error={letterhead.error} onRetry={() => void letterhead.refetch()} /> : null}
      {letterhead.isPending ? <TableSkeleton rows={2} /> : null}
      {letterhead.data ? <LetterheadForm letterhead={letterhead.data} editable={canAdmin(profile?.permissions)} /> : null}
    </Paper>
  );
}
