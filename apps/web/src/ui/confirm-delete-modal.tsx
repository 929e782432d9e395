import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { msg } from '../lib/i18n';

/** The spec's confirmation for deleting a record (spec §5). */
export const CONFIRM_DELETE = msg('Are you sure you would like to delete that entry?');

/**
 * A delete confirmation: what goes (`children`), an error of the last try (`error`), Cancel and a red
 * Delete that shows `pending` while the call runs.
 */
export function ConfirmDeleteModal(props: {
  opened: boolean;
  title: string;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  error?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={props.opened} onClose={props.onCancel} title={props.title} centered>
      <Stack gap="md">
        {props.children}
        {props.error}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onCancel}>
            {t('Cancel')}
          </Button>
          <Button color="red" loading={props.pending} onClick={props.onConfirm}>
            {t('Delete')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
