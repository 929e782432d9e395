/**
 * 'Send' by e-mail (issue 15 §1): the choice between posting only and posting and e-mailing the PDF
 * to contacts of the customer, and the invoice's e-mail history. Kept beside the status dialog so
 * the status-change code stays as it is.
 */
import { Alert, Anchor, Checkbox, Paper, SegmentedControl, Select, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { languageOptions } from '../../lib/i18n';
import { EmptyRow } from '../../ui/empty-row';
import { ErrorAlert } from '../../ui/error-alert';
import { MessageStatusBadge } from '../../ui/message-status-badge';
import { customerContactsQuery, invoiceMessagesQuery, type Invoice } from './api';
import { useTranslation } from 'react-i18next';

export type EmailLang = 'de' | 'fr' | 'it' | 'en';
export interface EmailChoice {
  mode: 'post' | 'email';
  contactIds: number[];
  lang: EmailLang | null;
}

/** Post only, or post and e-mail to the chosen contacts in a language (default: the first chosen contact's). */
export function EmailOptions({ invoice, value, onChange, error }: { invoice: Invoice; value: EmailChoice; onChange: (next: EmailChoice) => void; error?: string }) {
  const { t } = useTranslation();
  const contacts = useQuery(customerContactsQuery(invoice.company.uuid));
  const rows = contacts.data?.data ?? [];
  const firstChosen = rows.find((c) => value.contactIds.includes(c.id));
  return (
    <Stack gap="xs">
      <SegmentedControl
        aria-label={t('How to send')}
        value={value.mode}
        onChange={(mode) => onChange({ ...value, mode: mode as EmailChoice['mode'] })}
        data={[
          { value: 'post', label: t('Post only') },
          { value: 'email', label: t('Post and e-mail') },
        ]}
      />
      {value.mode === 'email' ? (
        <Paper withBorder p="sm">
          {contacts.isError ? <ErrorAlert what={t('Could not load the contacts')} error={contacts.error} /> : null}
          {contacts.data && rows.length === 0 ? (
            <Alert color="yellow" variant="light" p="xs">
              {t('{{name}} has no contact with an e-mail address.', { name: invoice.company.name })}{' '}
              <Anchor component={Link} to={paths.company.getHref(invoice.company.uuid, 'contacts')} size="sm">
                {t('Add a contact')}
              </Anchor>
            </Alert>
          ) : null}
          <Checkbox.Group
            label={t('To')}
            value={value.contactIds.map(String)}
            onChange={(ids) => onChange({ ...value, contactIds: ids.map(Number) })}
            error={error}
          >
            <Stack gap={4} mt={4}>
              {rows.map((contact) => (
                <Checkbox key={contact.id} value={String(contact.id)} label={`${contact.name} <${contact.email}>`} />
              ))}
            </Stack>
          </Checkbox.Group>
          <Select
            mt="xs"
            label={t('Language')}
            data={languageOptions}
            value={value.lang ?? firstChosen?.lang ?? 'de'}
            allowDeselect={false}
            onChange={(lang) => onChange({ ...value, lang: lang as EmailLang })}
            description={t('of the e-mail and the PDF')}
          />
          <Text size="xs" c="dimmed" mt="xs">
            {t('The PDF with the QR-bill is attached, with a link to view the invoice online.')}
          </Text>
        </Paper>
      ) : null}
    </Stack>
  );
}

const RECIPIENT_SEPARATOR = ', ';

const dateTime = (value: string) => new Date(value).toLocaleString('de-CH', { dateStyle: 'short', timeStyle: 'short' });

/** The invoice's e-mails with their status (queued, sent, failed with the server's answer, not sent). */
export function InvoiceMessages({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation();
  const messages = useQuery(invoiceMessagesQuery(invoice.uuid));
  if (messages.isError) return <ErrorAlert what={t('Could not load the e-mails')} error={messages.error} />;
  const rows = messages.data?.data ?? [];
  if (!messages.data || (rows.length === 0 && invoice.status === 1)) return null;
  return (
    <Paper withBorder p="md">
      <Text fw={600} mb="xs">
        {t('E-mails')}
      </Text>
      <Table withTableBorder aria-label={t('E-mails')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={140}>{t('Created')}</Table.Th>
            <Table.Th>{t('To')}</Table.Th>
            <Table.Th>{t('Subject')}</Table.Th>
            <Table.Th>{t('Status')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 ? <EmptyRow columns={4}>{t('Not sent by e-mail.')}</EmptyRow> : null}
          {rows.map((message) => (
            <Table.Tr key={message.uuid}>
              <Table.Td>{dateTime(message.createdAt)}</Table.Td>
              <Table.Td>{message.to.join(RECIPIENT_SEPARATOR)}</Table.Td>
              <Table.Td>{message.subject}</Table.Td>
              <Table.Td>
                <Stack gap={2} align="flex-start">
                  <MessageStatusBadge status={message.status} serverResponse={message.serverResponse} />
                  {message.status === 'failed' && message.serverResponse ? (
                    <Text size="xs" c="red">
                      {message.serverResponse}
                    </Text>
                  ) : null}
                </Stack>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}
