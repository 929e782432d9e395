import { useState } from 'react';
import { ActionIcon, Alert, Anchor, Badge, Button, Group, Modal, Paper, SimpleGrid, Stack, Table, Tabs, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { companyAddressSchema, companyUpdateSchema, formatDate, type CompanyAddress } from '@bilan/domain';
import { paths } from '../../config/paths';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { applyFieldErrors, payloadResolver } from '../../lib/forms';
import { useSession } from '../../lib/session';
import { Amount } from '../../ui/amount';
import { ErrorAlert } from '../../ui/error-alert';
import { Page } from '../../ui/page';
import { TableSkeleton } from '../../ui/table-skeleton';
import { AddressFields, addressPayload, emptyAddress, type AddressFormValues } from './address-fields';
import {
  addressListQuery,
  apArQuery,
  companiesKey,
  companyDetailQuery,
  deleteAddress,
  deleteCompany,
  insertAddress,
  updateAddress,
  updateCompany,
  type Company,
  type OpenItem,
} from './api';
import { canWrite, countryLabel } from './labels';
import { PaymentProfiles } from './payment-profiles';
import { Properties } from './properties';
import { Contacts } from './contacts';
import { UidLink } from './uid-link';
import { useTranslation } from 'react-i18next';
import { msg } from '../../lib/i18n';

const TABS = [
  { value: 'general', label: msg('General') },
  { value: 'addresses', label: msg('Addresses') },
  { value: 'contacts', label: msg('Contacts') },
  { value: 'payment-profiles', label: msg('Payment profiles') },
  { value: 'properties', label: msg('Additional properties') },
  { value: 'ap-ar', label: msg('Receivables & payables') },
] as const;

function GeneralTab({ company, editable }: { company: Company; editable: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleteFailure, setDeleteFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError, formState } = useForm({
    defaultValues: { name: company.name, uid: company.uid ?? '' },
    resolver: payloadResolver(companyUpdateSchema, (values: { name: string; uid: string }) => ({ name: values.name, uid: values.uid.trim() || null }), { known: ['name', 'uid'] }),
  });

  const submit = handleSubmit(async (data) => {
    setFailure(null);
    try {
      await updateCompany(company.uuid, data);
      await queryClient.invalidateQueries({ queryKey: companiesKey });
      notifications.show({ color: 'green', message: t('Company saved.') });
    } catch (error) {
      const rest = applyFieldErrors(setError, serverFieldErrors(error), ['name', 'uid'], (p) => p.replace(/^data\./, ''));
      if (rest.length || !Object.keys(serverFieldErrors(error)).length) setFailure(rest.join('; ') || errorMessage(error));
    }
  });

  const remove = async () => {
    setDeleteFailure(null);
    try {
      await deleteCompany(company.uuid);
      await queryClient.invalidateQueries({ queryKey: companiesKey });
      notifications.show({ color: 'green', message: t('{{name}} was deleted.', { name: company.name }) });
      void navigate(paths.companies.getHref());
    } catch (error) {
      setDeleteFailure(errorMessage(error));
    }
  };

  return (
    <Stack gap="md" maw={720}>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <div>
          <Text size="xs" c="dimmed">UID</Text>
          <UidLink uid={company.uid} />
        </div>
        <div>
          <Text size="xs" c="dimmed">{t('Added')}</Text>
          <Text size="sm">{formatDate(company.dateAdded)}</Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">{t('Company id')}</Text>
          <Text size="sm" ff="monospace">{company.uuid}</Text>
        </div>
      </SimpleGrid>
      {editable ? (
        <Paper withBorder p="md">
          <form onSubmit={(event) => void submit(event)} noValidate>
            <Stack gap="sm">
              <Controller control={control} name="name" render={({ field, fieldState }) => <TextInput label={t('Name')} required {...field} error={fieldState.error?.message} />} />
              <Controller
                control={control}
                name="uid"
                render={({ field, fieldState }) => <TextInput label="UID" placeholder="CHE-123.456.789" {...field} error={fieldState.error?.message} />}
              />
              {failure || formState.errors.root ? <Alert color="red" variant="light" role="alert">{failure ?? formState.errors.root?.message}</Alert> : null}
              <Group justify="space-between">
                {!company.isOwn ? (
                  <Button variant="subtle" color="red" onClick={() => setConfirmDelete(true)}>
                    {t('Delete company')}
                  </Button>
                ) : (
                  <span />
                )}
                <Button type="submit" loading={formState.isSubmitting}>
                  {t('Save')}
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
      ) : null}
      <Modal opened={confirmDelete} onClose={() => setConfirmDelete(false)} title={t('Delete {{name}}?', { name: company.name })} centered>
        <Stack gap="md">
          <Text>{t('The company, its addresses, payment profiles and properties are removed.')}</Text>
          {deleteFailure ? <Alert color="red" variant="light" role="alert" title={t('The company was not deleted')}>{deleteFailure}</Alert> : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmDelete(false)}>{t('Cancel')}</Button>
            {!deleteFailure ? <Button color="red" onClick={() => void remove()}>{t('Delete')}</Button> : null}
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function AddressesTab({ company, editable }: { company: Company; editable: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const addresses = useQuery(addressListQuery(company.uuid));
  const [adding, setAdding] = useState(false);
  /** The address being changed; null while adding a new one. */
  const [editingId, setEditingId] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const known = ['street', 'houseNumber', 'zip', 'city', 'country'];
  const toFormPath = (p: string) => p.replace(/^data\./, '').replace(/^country\.id$/, 'country');
  const { control, handleSubmit, setError, reset, formState } = useForm<AddressFormValues, unknown, CompanyAddress>({
    defaultValues: emptyAddress,
    resolver: payloadResolver(companyAddressSchema, addressPayload, { known, formPath: toFormPath }),
  });
  const startEdit = (a: { id: number; street: string; houseNumber: string | null; zip: string; city: string; country: { id: number } }) => {
    reset({ street: a.street, houseNumber: a.houseNumber ?? '', zip: a.zip, city: a.city, country: String(a.country.id) });
    setEditingId(a.id);
    setAdding(true);
  };
  const close = () => {
    reset(emptyAddress);
    setEditingId(null);
    setAdding(false);
  };

  const submit = handleSubmit(async (data) => {
    setFailure(null);
    try {
      if (editingId === null) await insertAddress({ ...data, company: { uuid: company.uuid } });
      else await updateAddress(editingId, data);
      await queryClient.invalidateQueries({ queryKey: companiesKey });
      close();
    } catch (error) {
      const rest = applyFieldErrors(setError, serverFieldErrors(error), known, toFormPath);
      if (rest.length || !Object.keys(serverFieldErrors(error)).length) setFailure(rest.join('; ') || errorMessage(error));
    }
  });

  const remove = async (id: number) => {
    try {
      await deleteAddress(id);
      await queryClient.invalidateQueries({ queryKey: companiesKey });
    } catch (error) {
      setFailure(errorMessage(error));
    }
  };

  return (
    <Stack gap="md" maw={900}>
      {addresses.isError ? <ErrorAlert what={t('Could not load the addresses')} error={addresses.error} onRetry={() => void addresses.refetch()} /> : null}
      {!addresses.data && !addresses.isError ? <TableSkeleton rows={2} /> : null}
      {addresses.data ? (
        addresses.data.data.length === 0 ? (
          <Text size="sm" c="dimmed">{t('No address yet. Invoices with a QR bill need one.')}</Text>
        ) : (
          <Table withTableBorder striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Street')}</Table.Th>
                <Table.Th>{t('House number')}</Table.Th>
                <Table.Th>{t('ZIP')}</Table.Th>
                <Table.Th>{t('City')}</Table.Th>
                <Table.Th>{t('Country')}</Table.Th>
                <Table.Th w={80}><VisuallyHidden>{t('Actions')}</VisuallyHidden></Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {addresses.data.data.map((a) => (
                <Table.Tr key={a.id}>
                  <Table.Td>{a.street}</Table.Td>
                  <Table.Td>{a.houseNumber ?? ''}</Table.Td>
                  <Table.Td>{a.zip}</Table.Td>
                  <Table.Td>{a.city}</Table.Td>
                  <Table.Td>{countryLabel(a.country.id)}</Table.Td>
                  <Table.Td>
                    {editable ? (
                      <Group gap={2} wrap="nowrap">
                        <ActionIcon variant="subtle" color="gray" aria-label={t('Edit address {{id}}', { id: a.id })} onClick={() => startEdit(a)}>
                          <IconEdit size={16} />
                        </ActionIcon>
                        <ActionIcon variant="subtle" color="gray" aria-label={t('Delete address {{id}}', { id: a.id })} onClick={() => void remove(a.id)}>
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Group>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )
      ) : null}
      {editable && !adding ? (
        <Group>
          <Button size="xs" leftSection={<IconPlus size={14} />} onClick={() => setAdding(true)}>{t('Add address')}</Button>
        </Group>
      ) : null}
      {adding ? (
        <Paper withBorder p="md">
          <form onSubmit={(event) => void submit(event)} noValidate>
            <Stack gap="sm">
              <Title order={2} size="h5">{editingId === null ? t('New address') : t('Change address')}</Title>
              <AddressFields control={control} prefix="" />
              <Group justify="flex-end">
                <Button variant="default" onClick={close}>{t('Cancel')}</Button>
                <Button type="submit" loading={formState.isSubmitting}>{t('Save address')}</Button>
              </Group>
            </Stack>
          </form>
        </Paper>
      ) : null}
      {failure || formState.errors.root ? <Alert color="red" variant="light" role="alert">{failure ?? formState.errors.root?.message}</Alert> : null}
    </Stack>
  );
}

const documentLabel: Record<string, string> = { invoice: msg('Invoice'), bill: msg('Bill') };

/**
 * Open receivables or payables of the company: each document linked (invoice detail; open bills
 * searched for the bill), dates dd.mm.yyyy, amounts fr-CH in the instance currency, and the total.
 */
function OpenItems({ title, items, total }: { title: string; items: OpenItem[]; total: string }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Group justify="space-between" mb="xs">
        <Text fw={600}>
          {`${title} (${items.length})`}
        </Text>
        <Text fw={600}>
          {t('Total {{currency}}', { currency: items[0]?.currency ?? '' })} <Amount value={total} />
        </Text>
      </Group>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed">{t('Nothing open.')}</Text>
      ) : (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Document')}</Table.Th>
              <Table.Th>{t('Reference')}</Table.Th>
              <Table.Th>{t('Date')}</Table.Th>
              <Table.Th>{t('Due')}</Table.Th>
              <Table.Th className="num">{t('Amount')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((item) => (
              <Table.Tr key={`${item.document}-${item.uuid ?? item.id}`}>
                <Table.Td>{t(documentLabel[item.document] ?? item.document)}</Table.Td>
                <Table.Td>
                  {item.link ? (
                    <Anchor component={Link} to={item.link} size="sm">
                      {item.reference}
                    </Anchor>
                  ) : (
                    item.reference
                  )}
                </Table.Td>
                <Table.Td>{formatDate(item.date)}</Table.Td>
                <Table.Td>{formatDate(item.dueDate)}</Table.Td>
                <Table.Td className="num">
                  {item.currency} <Amount value={item.amount} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

function ApArTab({ company }: { company: Company }) {
  const { t } = useTranslation();
  const apAr = useQuery(apArQuery(company.uuid));
  if (apAr.isError) return <ErrorAlert what={t('Could not load the open items')} error={apAr.error} onRetry={() => void apAr.refetch()} />;
  if (!apAr.data) return <TableSkeleton rows={4} />;
  return (
    <Stack gap="md" maw={900}>
      <OpenItems title={t('Open receivables')} items={apAr.data.receivables} total={apAr.data.totals.receivable} />
      <OpenItems title={t('Open payables')} items={apAr.data.payables} total={apAr.data.totals.payable} />
      <Group justify="flex-end">
        <Text fw={700}>
          {t('Net {{currency}}', { currency: apAr.data.receivables[0]?.currency ?? apAr.data.payables[0]?.currency ?? '' })} <Amount value={apAr.data.totals.net} />
        </Text>
      </Group>
    </Stack>
  );
}

/** /company/{uuid}/{tab}: general data, addresses, payment profiles, additional properties, ap-ar. */
export function CompanyPage() {
  const { t } = useTranslation();
  const params = useParams();
  const uuid = params.uuid ?? '';
  const tab = TABS.some((entry) => entry.value === params['*']) ? params['*']! : 'general';
  const navigate = useNavigate();
  const { profile } = useSession();
  const editable = canWrite(profile?.permissions);
  const company = useQuery(companyDetailQuery(uuid));

  if (company.isError) {
    return (
      <Page title={t('Company')}>
        <ErrorAlert what={t('Could not load the company')} error={company.error} />
        <Anchor component={Link} to={paths.companies.getHref()}>{t('Back to the companies')}</Anchor>
      </Page>
    );
  }
  if (!company.data) {
    return (
      <Page title={t('Company')}>
        <TableSkeleton rows={4} />
      </Page>
    );
  }
  const c = company.data;
  return (
    <Page
      title={
        <Group gap="sm">
          {c.name}
          {c.isOwn ? <Badge variant="light">{t('own company')}</Badge> : null}
        </Group>
      }
      documentTitle={c.name}
      actions={<Button component={Link} to={paths.companies.getHref()} variant="default">{t('All companies')}</Button>}
    >
      <Tabs value={tab} onChange={(next) => next && void navigate(paths.company.getHref(uuid, next))} keepMounted={false}>
        <Tabs.List mb="md">
          {TABS.map((entry) => (
            <Tabs.Tab key={entry.value} value={entry.value}>{t(entry.label)}</Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="general"><GeneralTab key={c.uuid + c.name + (c.uid ?? '')} company={c} editable={editable} /></Tabs.Panel>
        <Tabs.Panel value="addresses"><AddressesTab company={c} editable={editable} /></Tabs.Panel>
        <Tabs.Panel value="contacts"><Contacts companyUuid={c.uuid} editable={editable} /></Tabs.Panel>
        <Tabs.Panel value="payment-profiles"><PaymentProfiles companyUuid={c.uuid} editable={editable} /></Tabs.Panel>
        <Tabs.Panel value="properties"><Properties companyUuid={c.uuid} editable={editable} /></Tabs.Panel>
        <Tabs.Panel value="ap-ar"><ApArTab company={c} /></Tabs.Panel>
      </Tabs>
    </Page>
  );
}
