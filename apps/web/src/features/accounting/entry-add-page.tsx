import { Alert, Anchor, Paper } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { JournalEntryInput } from '@bilan/domain';
import { paths } from '../../config/paths';
import { useCan } from '../../lib/session';
import { Page } from '../../ui/page';
import { accountingKey, insertEntry } from './api';
import { EntryForm } from './entry-form';

/** /accounting/entry/add: on success, home with the banner 'Journal Entry {id} was successfully added.' */
export function EntryAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const canWrite = useCan('write');

  const save = async (payload: JournalEntryInput) => {
    const entry = await insertEntry(payload);
    await queryClient.invalidateQueries({ queryKey: accountingKey });
    await navigate(paths.home.getHref(), { state: { addedEntryId: entry.id } });
  };

  return (
    <Page
      title={t('Add Journal Entry')}
      actions={
        canWrite ? (
          <Anchor component={Link} to={paths.accountingImport.getHref()} size="sm">
            {t('Import a journal instead')}
          </Anchor>
        ) : null
      }
    >
      {canWrite ? (
        <Paper withBorder p="md" radius="md">
          <EntryForm onSubmit={save} />
        </Paper>
      ) : (
        <Alert color="yellow" variant="light" role="alert">
          {t('Your role (viewer) may only read in this workplace.')}
        </Alert>
      )}
    </Page>
  );
}
