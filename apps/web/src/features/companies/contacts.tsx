import { useState } from 'react';
import { ActionIcon, Button, Group, NumberInput, Paper, Select, SimpleGrid, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEdit, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ContactLang } from '@bilan/domain';
import { LANGUAGE_NAMES, languageOptions } from '../../lib/i18n';
import { serverFieldErrors } from '../../lib/errors';
import { EmptyRow } from '../../ui/empty-row';
import { ErrorAlert } from '../../ui/error-alert';
import { TableSkeleton } from '../../ui/table-skeleton';
import { contactListQuery, deleteContact, insertContact, updateContact, type Contact } from './api';
import { useTranslation } from 'react-i18next';


interface Draft {
  name: string;
  email: string;
  lang: ContactLang;
  paymentTermsDays: number | null;
}

const emptyDraft: Draft = { name: '', email: '', lang: 'de', paymentTermsDays: null };

/** Adds or changes one contact; the server's field messages show next to the inputs. */
function ContactForm({ companyUuid, contact, onDone }: { companyUuid: string; contact: Contact | null; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(contact ? { name: contact.name, email: contact.email, lang: contact.lang, paymentTermsDays: contact.paymentTermsDays } : emptyDraft);
  const save = useMutation({
    mutationFn: () => (contact ? updateContact(contact.id, draft) : insertContact({ company: { uuid: companyUuid }, ...draft })),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: contactListQuery(companyUuid).queryKey });
      notifications.show({ color: 'green', message: t('Contact {{name}} saved', { name: saved.name }) });
      onDone();
    },
  });
  const raw = serverFieldErrors(save.error);
  const fields = Object.fromEntries(Object.entries(raw).map(([key, message]) => [key.replace(/^data\./, ''), message]));
  return (
    <Paper withBorder p="md">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate();
        }}
      >
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
            <TextInput label={t('Name')} required value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })} error={fields.name} />
            <TextInput label="E-mail" required inputMode="email" value={draft.email} onChange={(e) => setDraft({ ...draft, email: e.currentTarget.value })} error={fields.email} />
            <Select label={t('Invoice language')} data={languageOptions} value={draft.lang} allowDeselect={false} onChange={(value) => setDraft({ ...draft, lang: (value ?? 'de') as ContactLang })} error={fields.lang} />
            <NumberInput
              label={t('Payment terms (days)')}
              min={0}
              max={365}
              allowDecimal={false}
              value={draft.paymentTermsDays ?? ''}
              onChange={(value) => setDraft({ ...draft, paymentTermsDays: value === '' ? null : Number(value) })}
              error={fields.paymentTermsDays}
              description={t("empty: the workplace's default")}
            />
          </SimpleGrid>
          {save.isError && Object.keys(fields).length === 0 ? <ErrorAlert what={t('Could not save the contact')} error={save.error} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onDone}>
              {t('Cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {contact ? t('Save') : t('Add contact')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** The Contacts tab of a company (issue 15 §1): who receives its invoices by e-mail. */
export function Contacts({ companyUuid, editable }: { companyUuid: string; editable: boolean }) {
  const { t } = useTranslation();
  const contacts = useQuery(contactListQuery(companyUuid));
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<Contact | 'new' | null>(null);
  const remove = useMutation({
    mutationFn: deleteContact,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactListQuery(companyUuid).queryKey }),
  });
  if (contacts.isLoading) return <TableSkeleton rows={2} />;
  if (contacts.isError) return <ErrorAlert what={t('Could not load the contacts')} error={contacts.error} onRetry={() => void contacts.refetch()} />;
  const rows = contacts.data?.data ?? [];
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('Contact people receive the invoices sent by e-mail, in their language; their payment terms are proposed on new invoices.')}
      </Text>
      <Table withTableBorder aria-label={t('Contacts')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Name')}</Table.Th>
            <Table.Th>E-mail</Table.Th>
            <Table.Th>{t('Invoice language')}</Table.Th>
            <Table.Th>{t('Payment terms')}</Table.Th>
            {editable ? (
              <Table.Th w={90}>
                <VisuallyHidden>{t('Actions')}</VisuallyHidden>
              </Table.Th>
            ) : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 ? <EmptyRow columns={editable ? 5 : 4}>{t('No contact yet.')}</EmptyRow> : null}
          {rows.map((contact) => (
            <Table.Tr key={contact.id}>
              <Table.Td>{contact.name}</Table.Td>
              <Table.Td>{contact.email}</Table.Td>
              <Table.Td>{LANGUAGE_NAMES[contact.lang]}</Table.Td>
              <Table.Td>{contact.paymentTermsDays === null ? t('default') : t('{{days}} days', { days: contact.paymentTermsDays })}</Table.Td>
              {editable ? (
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <ActionIcon variant="subtle" aria-label={t('Edit {{name}}', { name: contact.name })} onClick={() => setEditing(contact)}>
                      <IconEdit size={16} />
                    </ActionIcon>
                    <ActionIcon variant="subtle" color="red" aria-label={t('Remove {{name}}', { name: contact.name })} loading={remove.isPending && remove.variables === contact.id} onClick={() => remove.mutate(contact.id)}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {remove.error ? <ErrorAlert what={t('Could not remove the contact')} error={remove.error} /> : null}
      {editing ? (
        <ContactForm key={editing === 'new' ? 'new' : editing.id} companyUuid={companyUuid} contact={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />
      ) : editable ? (
        <Group>
          <Button variant="light" onClick={() => setEditing('new')}>
            {t('Add contact')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
