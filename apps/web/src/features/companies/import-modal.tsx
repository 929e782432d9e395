import { useState } from 'react';
import { Alert, Button, Code, FileInput, Group, List, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileTypeCsv } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { companiesKey, importCompanies } from './api';
import { Trans, useTranslation } from 'react-i18next';
import { msg } from '../../lib/i18n';

const CSV_HEADER = 'name,uid,street,houseNumber,zip,city,country';

/**
 * CSV import of companies (`/company/import`): all or nothing; a refused file lists each bad
 * row and column as the server named them.
 */
export function CompanyImportModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<{ message: string; rows: [string, string][] } | null>(null);

  const close = () => {
    setFile(null);
    setFailure(null);
    onClose();
  };
  const submit = async () => {
    if (!file) return;
    setPending(true);
    setFailure(null);
    try {
      const result = await importCompanies(await file.text());
      await queryClient.invalidateQueries({ queryKey: companiesKey });
      notifications.show({ color: 'green', message: t('{{created}} companies imported.', { created: result.created }) });
      close();
    } catch (error) {
      setFailure({ message: errorMessage(error), rows: Object.entries(serverFieldErrors(error)) });
    } finally {
      setPending(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={t('Import companies')} size="lg" centered>
      <Stack gap="sm">
        <Text size="sm">
          <Trans
            t={t}
            i18nKey={msg(
              'A CSV file with the header <code>{{header}}</code>. Only the name is required; an address needs street, zip, city and country (id, ISO code such as CH, or English name). Nothing is imported when a row is wrong.',
            )}
            values={{ header: CSV_HEADER }}
            components={{ code: <Code /> }}
          />
        </Text>
        <FileInput label={t('CSV file')} accept=".csv,text/csv" leftSection={<IconFileTypeCsv size={16} aria-hidden />} value={file} onChange={setFile} clearable />
        {failure ? (
          <Alert color="red" variant="light" role="alert" title={t('The file was not imported')}>
            {failure.rows.length ? (
              <List size="sm">
                {failure.rows.map(([where, message]) => (
                  <List.Item key={where}>
                    {where}: {message}
                  </List.Item>
                ))}
              </List>
            ) : (
              failure.message
            )}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('Cancel')}
          </Button>
          <Button onClick={() => void submit()} loading={pending} disabled={!file}>
            {t('Import')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
