import { useState } from 'react';
import { ActionIcon, Alert, Anchor, Button, Group, Modal, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconEdit, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { useCan } from '../../lib/session';
import { errorMessage } from '../../lib/errors';
import { Amount } from '../../ui/amount';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { accountingKey, accountListQuery, deleteAccount, type LedgerAccount } from './api';
import { AccountModal } from './account-modal';
import { accountTypeLabel } from './labels';

function DeleteAccountModal({ account, onClose }: { account: LedgerAccount | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const close = () => {
    setFailure(null);
    onClose();
  };
  const remove = async () => {
    if (!account) return;
    setPending(true);
    setFailure(null);
    try {
      await deleteAccount(account.id);
      await queryClient.invalidateQueries({ queryKey: accountingKey });
      notifications.show({ color: 'green', message: t('Account {{number}} was deleted.', { number: account.number }) });
      close();
    } catch (error) {
      // 409 when the account has postings: the server says why (docs/api.md).
      setFailure(errorMessage(error));
    } finally {
      setPending(false);
    }
  };

  return (
    <Modal opened={account !== null} onClose={close} title={t('Delete account {{number}}?', { number: account?.number ?? '' })} centered>
      <Stack gap="md">
        <Text>
          {t('{{number}} {{name}} is removed from the chart of accounts.', { number: account?.number, name: account?.name })}
        </Text>
        {failure ? (
          <Alert color="red" variant="light" role="alert" title={t('The account was not deleted')}>
            {failure}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {failure ? t('Close') : t('Cancel')}
          </Button>
          {!failure ? (
            <Button color="red" loading={pending} onClick={() => void remove()}>
              {t('Delete')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Modal>
  );
}

/** /accounting/account: the chart of accounts with balances. */
export function AccountsPage() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [text] = useDebouncedValue(search.trim(), 250);
  const accounts = useQuery(accountListQuery(text));
  const [editing, setEditing] = useState<LedgerAccount | null>(null);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<LedgerAccount | null>(null);
  const canWrite = useCan('write');

  return (
    <Page
      title={t('Ledger Accounts')}
      actions={
        canWrite && (
        <>
          <Button component={Link} to={paths.accountingImport.getHref()} variant="default">
            {t('Import')}
          </Button>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            {t('New account')}
          </Button>
        </>
        )
      }
    >
      <TextInput
        label={t('Search')}
        placeholder={t('Number or name')}
        leftSection={<IconSearch size={16} aria-hidden />}
        w={300}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
      />
      {accounts.isError ? <ErrorAlert what={t('Could not load the ledger accounts')} error={accounts.error} onRetry={() => void accounts.refetch()} /> : null}
      {!accounts.data && !accounts.isError ? <TableSkeleton /> : null}
      {accounts.data ? (
        <>
          <Table.ScrollContainer minWidth={700} maxHeight="calc(100vh - 260px)">
            <Table stickyHeader striped highlightOnHover withTableBorder aria-busy={accounts.isFetching}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={100}>{t('Number')}</Table.Th>
                  <Table.Th>{t('Name')}</Table.Th>
                  <Table.Th w={110}>{t('Type')}</Table.Th>
                  <Table.Th w={90}>{t('Currency')}</Table.Th>
                  <Table.Th className="num" w={160}>
                    {t('Balance')}
                  </Table.Th>
                  <Table.Th w={80}>
                    <VisuallyHidden>{t('Actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {accounts.data.data.map((account) => (
                  <Table.Tr key={account.id}>
                    <Table.Td className="amount">
                      <Anchor component={Link} to={paths.accountDetail.getHref(account.id)} size="sm">
                        {account.number}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{account.name}</Table.Td>
                    <Table.Td>{t(accountTypeLabel(account.type.id))}</Table.Td>
                    <Table.Td>{account.currency}</Table.Td>
                    <Table.Td className="num">
                      <Amount value={account.balance} />
                    </Table.Td>
                    <Table.Td>
                      {canWrite ? (
                      <Group gap={2} wrap="nowrap">
                        <ActionIcon variant="subtle" color="gray" aria-label={t('Edit account {{number}}', { number: account.number })} onClick={() => setEditing(account)}>
                          <IconEdit size={16} />
                        </ActionIcon>
                        <ActionIcon variant="subtle" color="gray" aria-label={t('Delete account {{number}}', { number: account.number })} onClick={() => setDeleting(account)}>
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Group>
                      ) : null}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Text size="sm" c="dimmed">
            {t('{{total}} accounts', { total: accounts.data.total })}
            {accounts.data.total === 0 && !text ? (
              <>
                {' '}
                {`· `}
                <Anchor component={Link} to={paths.accountingImport.getHref()} inherit>
                  {t('Import a chart of accounts')}
                </Anchor>
              </>
            ) : null}
          </Text>
        </>
      ) : null}
      <AccountModal
        opened={creating || editing !== null}
        account={editing}
        onClose={() => {
          setCreating(false);
          setEditing(null);
        }}
      />
      <DeleteAccountModal account={deleting} onClose={() => setDeleting(null)} />
    </Page>
  );
}
