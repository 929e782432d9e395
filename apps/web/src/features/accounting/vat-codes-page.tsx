import { useState } from 'react';
import { Alert, Badge, Button, Group, Modal, SegmentedControl, Select, SimpleGrid, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  VAT_CODE_KINDS,
  VAT_RATE_PERIODS,
  VAT_RATE_TYPES,
  vatCodePatchSchema,
  vatCodeSchema,
  vatPercentAt,
  type VatCodeKind,
  type VatRateType,
} from '@bilan/domain';
import { useCan } from '../../lib/session';
import { today } from '../../lib/dates';
import { msg } from '../../lib/i18n';
import { applyFieldErrors, payloadResolver } from '../../lib/forms';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { useSingleFlight } from '../../lib/single-flight';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { CONFIRM_DELETE, ConfirmDeleteModal } from '../../ui/confirm-delete-modal';
import { accountingKey, deleteVatCode, insertVatCode, updateVatCode, vatCodeListQuery, type VatCodeData, type VatCodePatch, type VatCodeRow } from './api';

const KIND_LABEL: Record<VatCodeKind, string> = {
  sales: msg('Sales (tax due)'),
  input: msg('Input tax'),
  acquisition: msg('Acquisition tax'),
  exempt: msg('Exempt / export'),
  reduction: msg('Reduction of consideration'),
  outside: msg('Outside the scope'),
};
const RATE_LABEL: Record<VatRateType, string> = { standard: msg('Standard'), reduced: msg('Reduced'), accommodation: msg('Accommodation'), zero: msg('None') };
/** The rate's name inside a sentence ("8.1 % (standard)"). */
const RATE_NAME: Record<VatRateType, string> = { standard: msg('standard'), reduced: msg('reduced'), accommodation: msg('accommodation'), zero: msg('none') };

/** The form's values: text inputs hold '' for "none". */
interface CodeFormValues {
  code: string;
  name: string;
  kind: VatCodeKind;
  rateType: VatRateType;
  accountNumber: string;
  deductionAccountNumber: string;
  defaultEntry: 'gross' | 'net';
  zifferBase: string;
  zifferTax: string;
  zifferDeduction: string;
  isActive: boolean;
}

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());
const toData = (values: CodeFormValues): VatCodeData => ({
  code: values.code.trim(),
  name: values.name,
  kind: values.kind,
  rateType: values.rateType,
  accountNumber: orNull(values.accountNumber),
  deductionAccountNumber: orNull(values.deductionAccountNumber),
  defaultEntry: values.defaultEntry,
  zifferBase: orNull(values.zifferBase),
  zifferTax: orNull(values.zifferTax),
  zifferDeduction: orNull(values.zifferDeduction),
  isActive: values.isActive,
});
const known = ['code', 'name', 'kind', 'rateType', 'accountNumber', 'deductionAccountNumber', 'defaultEntry', 'zifferBase', 'zifferTax', 'zifferDeduction', 'isActive'];
const insertResolver = payloadResolver(vatCodeSchema, toData, { known });
const updateResolver = payloadResolver(vatCodePatchSchema, ({ code: _code, ...values }: CodeFormValues) => {
  const { code: _unused, ...data } = toData({ ...values, code: '' });
  return data;
}, { known });

const emptyValues: CodeFormValues = {
  code: '',
  name: '',
  kind: 'input',
  rateType: 'standard',
  accountNumber: '1170',
  deductionAccountNumber: '',
  defaultEntry: 'gross',
  zifferBase: '',
  zifferTax: '400',
  zifferDeduction: '',
  isActive: true,
};
const valuesOf = (row: VatCodeRow): CodeFormValues => ({
  ...row,
  accountNumber: row.accountNumber ?? '',
  deductionAccountNumber: row.deductionAccountNumber ?? '',
  zifferBase: row.zifferBase ?? '',
  zifferTax: row.zifferTax ?? '',
  zifferDeduction: row.zifferDeduction ?? '',
});

/** Create or change one code; the code text is fixed once created (postings refer to it). */
function CodeModal({ editing, onClose }: { editing: VatCodeRow | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const isNew = editing === 'new';
  const row = editing && editing !== 'new' ? editing : null;
  // The resolver parses the form into the request body (domain schema), so submit gets the body.
  const form = useForm<CodeFormValues, unknown, VatCodeData | VatCodePatch>({
    values: row ? valuesOf(row) : emptyValues,
    resolver: (isNew ? insertResolver : updateResolver) as Resolver<CodeFormValues, unknown, VatCodeData | VatCodePatch>,
  });
  const { control, register, handleSubmit, setError, formState } = form;
  const kind = useWatch({ control, name: 'kind' });
  const save = useMutation({
    mutationFn: (body: VatCodeData | VatCodePatch) => (isNew ? insertVatCode(body as VatCodeData) : updateVatCode(row!.code, body as VatCodePatch)),
    onSuccess: async (saved) => {
      notifications.show({ color: 'green', message: t('VAT code {{code}} saved.', { code: saved.code }) });
      await queryClient.invalidateQueries({ queryKey: accountingKey });
      onClose();
    },
    onError: (error) => {
      applyFieldErrors(setError, serverFieldErrors(error), known, (path) => path.replace(/^data\./, ''));
    },
  });
  const submit = useSingleFlight(save.mutateAsync);
  const errorOf = (name: keyof CodeFormValues) => formState.errors[name]?.message;
  // The text inputs' registrations with their messages (named here, outside the markup).
  const textField = (name: 'code' | 'name' | 'accountNumber' | 'deductionAccountNumber' | 'zifferBase' | 'zifferTax' | 'zifferDeduction') => ({
    ...register(name),
    error: errorOf(name),
  });
  const fields = {
    code: textField('code'),
    name: textField('name'),
    accountNumber: textField('accountNumber'),
    deductionAccountNumber: textField('deductionAccountNumber'),
    zifferBase: textField('zifferBase'),
    zifferTax: textField('zifferTax'),
    zifferDeduction: textField('zifferDeduction'),
  };
  return (
    <Modal opened={editing !== null} onClose={onClose} title={isNew ? t('New VAT code') : t('VAT code {{code}}', { code: row?.code ?? '' })} size="lg">
      <form onSubmit={(event) => void handleSubmit((values) => submit(values))(event)} noValidate>
        <Stack gap="sm">
          <SimpleGrid cols={2}>
            <TextInput label={t('Code')} description={t('Capitals and digits, e.g. M81')} disabled={!isNew} {...fields.code} />
            <TextInput label={t('Name')} {...fields.name} />
            <Controller
              control={control}
              name="kind"
              render={({ field }) => (
                <Select label={t('Kind')} data={VAT_CODE_KINDS.map((k) => ({ value: k, label: t(KIND_LABEL[k]) }))} value={field.value} onChange={(v) => field.onChange(v)} allowDeselect={false} error={errorOf('kind')} />
              )}
            />
            <Controller
              control={control}
              name="rateType"
              render={({ field }) => (
                <Select
                  label={t('Rate')}
                  description={t('The percentage follows the supply date')}
                  data={VAT_RATE_TYPES.map((type) => ({
                    value: type,
                    label: type === 'zero' ? t('None (0 %)') : t('{{rate}} ({{percent}} % today)', { rate: t(RATE_LABEL[type]), percent: vatPercentAt(type, today()) }),
                  }))}
                  value={field.value}
                  onChange={(v) => field.onChange(v)}
                  allowDeselect={false}
                  error={errorOf('rateType')}
                />
              )}
            />
            <TextInput label={t('VAT account')} description={t('Where the tax goes (none for 0 %)')} {...fields.accountNumber} />
            {kind === 'acquisition' ? (
              <TextInput label={t('Deduction account')} description={t('Input tax of the acquisition tax')} {...fields.deductionAccountNumber} />
            ) : (
              <div />
            )}
            <TextInput label={t('Ziffer of the base')} description={t('As on the 2024 form, e.g. 303')} {...fields.zifferBase} />
            <TextInput label={t('Ziffer of the tax')} description={t('e.g. 303, 400, 405')} {...fields.zifferTax} />
            {kind === 'acquisition' ? (
              <TextInput label={t('Ziffer of the deduction')} description={t('400 or 405')} {...fields.zifferDeduction} />
            ) : null}
          </SimpleGrid>
          <Controller
            control={control}
            name="defaultEntry"
            render={({ field }) => (
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  {t('Amounts are entered')}
                </Text>
                <SegmentedControl
                  style={{ alignSelf: 'flex-start' }}
                  value={field.value}
                  onChange={field.onChange}
                  data={[
                    { value: 'gross', label: t('incl. VAT (gross)') },
                    { value: 'net', label: t('excl. VAT (net)') },
                  ]}
                />
                {errorOf('defaultEntry') ? (
                  <Text size="xs" c="red">
                    {errorOf('defaultEntry')}
                  </Text>
                ) : null}
              </Stack>
            )}
          />
          <Controller
            control={control}
            name="isActive"
            render={({ field }) => <Switch label={t('Active (offered on new journal lines)')} checked={field.value} onChange={(event) => field.onChange(event.currentTarget.checked)} />}
          />
          {formState.errors.root ? (
            <Alert color="red" variant="light" role="alert">
              {formState.errors.root.message}
            </Alert>
          ) : null}
          {save.error && Object.keys(serverFieldErrors(save.error)).length === 0 ? <ErrorAlert error={save.error} what={t('Could not save the VAT code')} /> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('Cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('Save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Codes in the order of the return: sales, exempt, reductions, input tax, acquisition tax, outside; then by code. */
const KIND_ORDER: VatCodeKind[] = ['sales', 'exempt', 'reduction', 'input', 'acquisition', 'outside'];
const sorted = (rows: readonly VatCodeRow[]) =>
  [...rows].sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || a.code.localeCompare(b.code, 'en', { numeric: true }));

/** The rate periods of the domain's table, latest first, as a line each. */
function RatePeriods() {
  const { t } = useTranslation();
  const periods = VAT_RATE_PERIODS.slice(0, 3)
    .map((p, i) => `${p.standard} / ${p.reduced} / ${p.accommodation} % ${i === 0 ? t('from {{year}}', { year: p.from.slice(0, 4) }) : `${p.from.slice(0, 4)}–${Number(VAT_RATE_PERIODS[i - 1]!.from.slice(0, 4)) - 1}`}`)
    .join('; ');
  return (
    <Text size="sm" c="dimmed">
      {t('The rate of a code follows the supply date:')} {periods}{' '}
      {t('(standard / reduced / accommodation).')}
    </Text>
  );
}

/**
 * /accounting/vat-codes (issue 13 §1): the instance's VAT codes with kind, rate, account, entry mode
 * and Ziffern. Owners and admins create and change them; a used code is deactivated, not deleted.
 */
export function VatCodesPage() {
  const { t } = useTranslation();
  const codes = useQuery(vatCodeListQuery());
  const canAdmin = useCan('admin');
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<VatCodeRow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<VatCodeRow | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: (code: string) => deleteVatCode(code),
    onSuccess: async () => {
      notifications.show({ color: 'green', message: t('VAT code {{code}} deleted.', { code: deleting?.code ?? '' }) });
      setDeleting(null);
      await queryClient.invalidateQueries({ queryKey: accountingKey });
    },
    onError: (error) => setDeleteError(errorMessage(error)),
  });
  const removeOnce = useSingleFlight(remove.mutateAsync);
  const date = today();
  return (
    <Page
      title={t('VAT Codes')}
      actions={
        canAdmin ? (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t('New VAT code')}
          </Button>
        ) : null
      }
    >
      <RatePeriods />
      {codes.isError ? <ErrorAlert error={codes.error} what={t('Could not load the VAT codes')} /> : null}
      {codes.isLoading ? (
        <TableSkeleton />
      ) : (
        <Table withTableBorder striped verticalSpacing={6} aria-label={t('VAT codes')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={80}>{t('Code')}</Table.Th>
              <Table.Th>{t('Name')}</Table.Th>
              <Table.Th>{t('Kind')}</Table.Th>
              <Table.Th>{t('Rate today')}</Table.Th>
              <Table.Th>{t('VAT account')}</Table.Th>
              <Table.Th>{t('Entered')}</Table.Th>
              <Table.Th>{t('Ziffern')}</Table.Th>
              <Table.Th w={150}>{t('Status')}</Table.Th>
              {canAdmin ? <Table.Th w={90} /> : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sorted(codes.data?.data ?? []).map((row) => (
              <Table.Tr key={row.code} style={row.isActive ? undefined : { opacity: 0.55 }}>
                <Table.Td fw={600}>{row.code}</Table.Td>
                <Table.Td>{row.name}</Table.Td>
                <Table.Td>{t(KIND_LABEL[row.kind])}</Table.Td>
                <Table.Td>{row.rateType === 'zero' ? '0 %' : `${vatPercentAt(row.rateType, date)} % (${t(RATE_NAME[row.rateType])})`}</Table.Td>
                <Table.Td>
                  {row.accountNumber ?? `—`}
                  {row.deductionAccountNumber ? ` / ${row.deductionAccountNumber}` : ''}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{row.defaultEntry === 'gross' ? t('incl. VAT') : t('excl. VAT')}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{[row.zifferBase, row.zifferTax, row.zifferDeduction].filter(Boolean).join(' / ') || `—`}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Badge variant="light" color={row.isActive ? 'green' : 'gray'}>
                      {row.isActive ? t('active') : t('inactive')}
                    </Badge>
                    {row.hasPostings ? (
                      <Badge variant="outline" color="gray">
                        {t('used')}
                      </Badge>
                    ) : null}
                  </Group>
                </Table.Td>
                {canAdmin ? (
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button size="compact-xs" variant="subtle" aria-label={t('Edit {{code}}', { code: row.code })} onClick={() => setEditing(row)}>
                        <IconPencil size={14} />
                      </Button>
                      {row.hasPostings ? null : (
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          color="red"
                          aria-label={t('Delete {{code}}', { code: row.code })}
                          onClick={() => {
                            setDeleteError(null);
                            setDeleting(row);
                          }}
                        >
                          <IconTrash size={14} />
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                ) : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <CodeModal key={editing === 'new' ? 'new' : (editing?.code ?? 'none')} editing={editing} onClose={() => setEditing(null)} />
      <ConfirmDeleteModal
        opened={deleting !== null}
        title={t('Delete VAT code {{code}}', { code: deleting?.code ?? '' })}
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && removeOnce(deleting.code)}
        error={
          deleteError ? (
            <Alert color="red" variant="light" role="alert">
              {deleteError}
            </Alert>
          ) : null
        }
      >
        <Text>{t(CONFIRM_DELETE)}</Text>
      </ConfirmDeleteModal>
    </Page>
  );
}
