import { useState } from 'react';
import { ActionIcon, Alert, Anchor, Button, Group, Modal, Select, Stack, Table, Text, TextInput, Tooltip, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArchive, IconCloudOff, IconExternalLink, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, useWatch } from 'react-hook-form';
import {
  clearIbanOnTypeChange,
  explorerUnavailableReason,
  formatIban,
  isIbanPaymentProfileType,
  ledgerPaymentProfileTypes,
  paymentProfileInsertSchema,
  type PaymentProfileInsert,
} from '@bilan/domain';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { applyFieldErrors, payloadResolver } from '../../lib/forms';
import { ErrorAlert } from '../../ui/error-alert';
import { TableSkeleton } from '../../ui/table-skeleton';
import { Pager } from '../../ui/pager';
import { ledgerAccountsQuery, archivePaymentProfile, companiesKey, deletePaymentProfile, insertPaymentProfile, paymentProfileListQuery, PROFILE_PAGE_SIZE, type PaymentProfile } from './api';
import { profileTypeLabel, profileTypeOptions } from './labels';
import { CONFIRM_DELETE, ConfirmDeleteModal } from '../../ui/confirm-delete-modal';
import { useTranslation } from 'react-i18next';

interface FormValues {
  account: number | null;
  type: string | null;
  iban: string;
  bic: string;
}
const known = ['account', 'type', 'iban', 'bic'] as const;
const HEX_ADDRESS_EXAMPLE = '0x…';
const IBAN_EXAMPLE = 'CH.. .... .... .... .... .';
const toFormPath = (path: string) => path.replace(/^data\./, '').replace(/^account\.id$/, 'account');

/**
 * Add-payment-profile form (spec §5 "Payment profile form"): account, type, IBAN or public
 * address, BIC. Changing the type away from IBAN/QR bill clears iban and bic; a refused insert
 * keeps the form open with the server's field errors.
 */
function PaymentProfileForm({ companyUuid, onDone }: { companyUuid: string; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError, setValue, formState } = useForm<FormValues, unknown, PaymentProfileInsert>({
    defaultValues: { account: null, type: '1', iban: '', bic: '' },
    resolver: payloadResolver(
      paymentProfileInsertSchema,
      (values: FormValues) => ({
        company: { uuid: companyUuid },
        account: values.account === null ? null : { id: values.account },
        type: values.type ? Number(values.type) : null,
        iban: values.iban,
        bic: isIbanPaymentProfileType(Number(values.type)) ? values.bic.trim() || null : null,
      }),
      { known, formPath: toFormPath },
    ),
  });
  const type = Number(useWatch({ control, name: 'type' }) ?? 0);
  const ledger = ledgerPaymentProfileTypes.includes(type);

  const submit = handleSubmit(async (data) => {
    setFailure(null);
    try {
      await insertPaymentProfile(data);
      await queryClient.invalidateQueries({ queryKey: companiesKey });
      notifications.show({ color: 'green', message: t('Payment profile added.') });
      onDone();
    } catch (error) {
      const fields = serverFieldErrors(error);
      const rest = applyFieldErrors(setError, fields, known, toFormPath);
      if (rest.length || Object.keys(fields).length === 0) setFailure(rest.length ? rest.join('; ') : errorMessage(error));
    }
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        <Controller
          control={control}
          name="account"
          render={({ field, fieldState }) => (
            <AccountSelect label={t('Account')} required value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
          )}
        />
        <Controller
          control={control}
          name="type"
          render={({ field, fieldState }) => (
            <Select
              label={t('Type')}
              required
              data={profileTypeOptions.map((option) => ({ ...option, label: t(option.label) }))}
              value={field.value}
              onChange={(next) => {
                field.onChange(next);
                if (clearIbanOnTypeChange(Number(next ?? 0))) {
                  setValue('iban', '');
                  setValue('bic', '');
                }
              }}
              error={fieldState.error?.message}
            />
          )}
        />
        <Controller
          control={control}
          name="iban"
          render={({ field, fieldState }) => (
            <TextInput
              label={ledger ? t('Public address') : type === 2 ? 'QR-IBAN' : 'IBAN'}
              required
              placeholder={ledger ? (type === 4 ? t('Base58 public key') : HEX_ADDRESS_EXAMPLE) : IBAN_EXAMPLE}
              {...field}
              error={fieldState.error?.message}
            />
          )}
        />
        {isIbanPaymentProfileType(type) ? (
          <Controller
            control={control}
            name="bic"
            render={({ field, fieldState }) => <TextInput label="BIC" description={t('Optional')} {...field} error={fieldState.error?.message} />}
          />
        ) : null}
        {failure || formState.errors.root ? (
          <Alert color="red" variant="light" role="alert">
            {failure ?? formState.errors.root?.message}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('Cancel')}
          </Button>
          <Button type="submit" loading={formState.isSubmitting}>
            {t('Add')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Ledger account picker ("1020 Bank"), searchable. */
function AccountSelect({ value, onChange, label, required, error }: { value: number | null; onChange: (id: number | null) => void; label: string; required?: boolean; error?: string }) {
  const { t } = useTranslation();
  const accounts = useQuery(ledgerAccountsQuery());
  const data = (accounts.data?.data ?? []).map((a) => ({ value: String(a.id), label: `${a.number} ${a.name}` }));
  return (
    <Select
      label={label}
      required={required}
      searchable
      clearable
      data={data}
      limit={200}
      nothingFoundMessage={accounts.isError ? t('Could not load the accounts') : t('No account found')}
      placeholder={accounts.isLoading ? t('Loading accounts…') : t('Number or name')}
      value={value === null ? null : String(value)}
      onChange={(next) => onChange(next ? Number(next) : null)}
      error={error}
    />
  );
}

/**
 * IBAN in groups of four, public addresses as given, with the chain's explorer link; a chain
 * without explorer (Goerli, shut down) says why in a tooltip.
 */
export function ProfileAccount({ profile }: { profile: PaymentProfile }) {
  const { t } = useTranslation();
  if (!profile.iban) return null;
  const unavailable = explorerUnavailableReason(profile.type);
  if (unavailable) {
    return (
      <Tooltip label={unavailable} withArrow>
        <Group gap={4} wrap="nowrap" c="dimmed" tabIndex={0} aria-label={`${profile.iban}: ${unavailable}`}>
          <Text size="sm" ff="monospace" span>
            {profile.iban}
          </Text>
          <IconCloudOff size={14} aria-hidden />
        </Group>
      </Tooltip>
    );
  }
  if (profile.explorerLink) {
    return (
      <Anchor href={profile.explorerLink} target="_blank" rel="noopener noreferrer" size="sm" ff="monospace">
        <Group gap={4} wrap="nowrap">
          {profile.iban}
          <IconExternalLink size={14} aria-label={t('opens the block explorer')} />
        </Group>
      </Anchor>
    );
  }
  return (
    <Text size="sm" ff="monospace">
      {formatIban(profile.iban)}
    </Text>
  );
}

/**
 * Payment Configuration (spec §2.7): the company's active profiles (archived ones hidden), add,
 * archive and delete with 'Are you sure you would like to delete that entry?'.
 */
export function PaymentProfiles({ companyUuid, editable }: { companyUuid: string; editable: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const profiles = useQuery(paymentProfileListQuery(companyUuid, page));
  // Archiving or deleting the last profile of the last page: show the page before.
  const lastPage = profiles.data ? Math.max(1, Math.ceil(profiles.data.total / PROFILE_PAGE_SIZE)) : page;
  if (page > lastPage) setPage(lastPage);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<PaymentProfile | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const act = async (fn: () => Promise<unknown>, message: string) => {
    setPending(true);
    setFailure(null);
    try {
      await fn();
      await queryClient.invalidateQueries({ queryKey: companiesKey });
      notifications.show({ color: 'green', message });
      setDeleting(null);
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setPending(false);
    }
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text fw={600}>{t('Payment Configuration')}</Text>
        {editable ? (
          <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => setAdding(true)}>
            {t('Add payment profile')}
          </Button>
        ) : null}
      </Group>
      {profiles.isError ? <ErrorAlert what={t('Could not load the payment profiles')} error={profiles.error} onRetry={() => void profiles.refetch()} /> : null}
      {!profiles.data && !profiles.isError ? <TableSkeleton rows={3} /> : null}
      {profiles.data && profiles.data.data.length === 0 ? (
        <Alert color="yellow" variant="light">
          {t('No Payment Profiles Found')}
        </Alert>
      ) : null}
      {profiles.data && profiles.data.data.length > 0 ? (
        <Table.ScrollContainer minWidth={640}>
          <Table withTableBorder striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Type')}</Table.Th>
                <Table.Th>{t('IBAN / address')}</Table.Th>
                <Table.Th>BIC</Table.Th>
                <Table.Th>{t('Account')}</Table.Th>
                <Table.Th w={80}>
                  <VisuallyHidden>{t('Actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {profiles.data.data.map((profile) => (
                <Table.Tr key={profile.id}>
                  <Table.Td>{t(profileTypeLabel(profile.type))}</Table.Td>
                  <Table.Td>
                    <ProfileAccount profile={profile} />
                  </Table.Td>
                  <Table.Td>{profile.bic ?? ''}</Table.Td>
                  <Table.Td>{profile.account ? `${profile.account.number} ${profile.account.name}` : ''}</Table.Td>
                  <Table.Td>
                    {editable ? (
                      <Group gap={2} wrap="nowrap">
                        <ActionIcon variant="subtle" color="gray" aria-label={t('Archive payment profile {{id}}', { id: profile.id })} onClick={() => void act(() => archivePaymentProfile(profile.id), t('Payment profile archived.'))}>
                          <IconArchive size={16} />
                        </ActionIcon>
                        <ActionIcon variant="subtle" color="gray" aria-label={t('Delete payment profile {{id}}', { id: profile.id })} onClick={() => setDeleting(profile)}>
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
      ) : null}
      {profiles.data && profiles.data.total > PROFILE_PAGE_SIZE ? (
        <Pager page={page} pageSize={PROFILE_PAGE_SIZE} total={profiles.data.total} capped={profiles.data.totalCapped} onChange={setPage} />
      ) : null}
      {failure && !deleting ? (
        <Alert color="red" variant="light" role="alert">
          {failure}
        </Alert>
      ) : null}
      <Modal opened={adding} onClose={() => setAdding(false)} title={t('Add payment profile')} centered>
        {adding ? <PaymentProfileForm companyUuid={companyUuid} onDone={() => setAdding(false)} /> : null}
      </Modal>
      <ConfirmDeleteModal
        opened={deleting !== null}
        title={t('Delete payment profile')}
        pending={pending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void act(() => deletePaymentProfile(deleting.id), t('Payment profile deleted.'))}
        error={
          failure ? (
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
          ) : null
        }
      >
        <Text>{t(CONFIRM_DELETE)}</Text>
      </ConfirmDeleteModal>
    </Stack>
  );
}
