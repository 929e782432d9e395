import { useState } from 'react';
import { Badge, Button, Code, Group, Paper, Stack, Tabs, Text, Textarea, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { serverFieldErrors } from '../../lib/errors';
import { LANGUAGE_NAMES } from '../../lib/i18n';
import { useCan } from '../../lib/session';
import { ErrorAlert } from '../../ui/error-alert';
import { TableSkeleton } from '../../ui/table-skeleton';
import { saveTemplate, templatesQuery, type Template } from './api';
import { useTranslation } from 'react-i18next';


function TemplateForm({ template, canEdit }: { template: Template; canEdit: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [subject, setSubject] = useState(template.subject);
  const [body, setBody] = useState(template.body);
  const save = useMutation({
    mutationFn: (reset: boolean) => saveTemplate(reset ? { lang: template.lang, reset: true } : { lang: template.lang, subject, body }),
    onSuccess: async (saved) => {
      setSubject(saved.subject);
      setBody(saved.body);
      await queryClient.invalidateQueries({ queryKey: templatesQuery().queryKey });
      notifications.show({ color: 'green', message: t('{{language}} template saved', { language: LANGUAGE_NAMES[template.lang] }) });
    },
  });
  const fields = serverFieldErrors(save.error);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(false);
      }}
    >
      <Stack gap="sm">
        <TextInput label={t('Subject')} value={subject} onChange={(e) => setSubject(e.currentTarget.value)} error={fields.subject} readOnly={!canEdit} required />
        <Textarea label={t('Message')} value={body} onChange={(e) => setBody(e.currentTarget.value)} error={fields.body} autosize minRows={6} readOnly={!canEdit} required />
        {save.isError && !fields.subject && !fields.body ? <ErrorAlert what={t('Could not save the template')} error={save.error} /> : null}
        {canEdit ? (
          <Group justify="flex-end">
            {template.isCustom ? (
              <Button variant="subtle" onClick={() => save.mutate(true)} loading={save.isPending && save.variables}>
                {t('Back to the default')}
              </Button>
            ) : null}
            <Button type="submit" loading={save.isPending && !save.variables}>
              {t('Save')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </form>
  );
}

/** The invoice e-mail per language (issue 15 §1), on the settings page; admins edit it. */
export function EmailTemplatesCard() {
  const { t } = useTranslation();
  const templates = useQuery(templatesQuery());
  const canEdit = useCan('admin');
  return (
    <Paper withBorder p="lg">
      <Title order={2} size="h4" mb="xs">
        {t('Invoice e-mail')}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t("Sent with the invoice PDF when an invoice is sent by e-mail, in the contact's language. Placeholders:")}{' '}
        {Object.keys(templates.data?.placeholders ?? {}).map((name, index) => (
          <span key={name}>
            {index ? ' ' : ''}
            <Code>{`{{${name}}}`}</Code>
          </span>
        ))}
      </Text>
      {templates.isError ? <ErrorAlert what={t('Could not load the templates')} error={templates.error} onRetry={() => void templates.refetch()} /> : null}
      {templates.isLoading ? <TableSkeleton rows={3} /> : null}
      {templates.data ? (
        <Tabs defaultValue="de">
          <Tabs.List>
            {templates.data.data.map((template) => (
              <Tabs.Tab key={template.lang} value={template.lang} rightSection={template.isCustom ? <Badge size="xs" variant="light">{t('own')}</Badge> : null}>
                {LANGUAGE_NAMES[template.lang]}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {templates.data.data.map((template) => (
            <Tabs.Panel key={template.lang} value={template.lang} pt="md">
              <TemplateForm key={`${template.subject}|${template.body}`} template={template} canEdit={canEdit} />
            </Tabs.Panel>
          ))}
        </Tabs>
      ) : null}
    </Paper>
  );
}
