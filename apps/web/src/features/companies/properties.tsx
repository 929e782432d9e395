import { useState } from 'react';
import { ActionIcon, Alert, Anchor, Button, Group, Paper, Select, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { AdditionalPropertyType as T, additionalPropertyInsertSchema, fieldErrors, formatCreditorReference, formatDate, formatQrReference } from '@bilan/domain';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { applyFieldErrors } from '../../lib/forms';
import { Amount } from '../../ui/amount';
import { ErrorAlert } from '../../ui/error-alert';
import { TableSkeleton } from '../../ui/table-skeleton';
import { companiesKey, deleteProperty, insertProperty, propertyListQuery, type AdditionalProperty } from './api';
import { propertyTypeLabel, propertyTypeOptions } from './labels';

/** A property value shown by its type: mail/phone/web links, dates dd.mm.yyyy, amounts fr-CH, references grouped. */
export function PropertyValue({ property }: { property: AdditionalProperty }) {
  const v = property.value;
  switch (property.type) {
    case T.Email:
      return <Anchor href={`mailto:${v}`} size="sm">{v}</Anchor>;
    case T.Phone:
      return <Anchor href={`tel:${v.replace(/[^+\d]/g, '')}`} size="sm">{v}</Anchor>;
    case T.Link:
      return <Anchor href={v} target="_blank" rel="noreferrer" size="sm">{v}</Anchor>;
    case T.InternalLink:
      return <Anchor component={Link} to={v} size="sm">{v}</Anchor>;
    case T.Date:
      return <Text size="sm">{formatDate(v)}</Text>;
    case T.Amount:
      return <Amount value={v} size="sm" />;
    case T.ReferenceNumber:
      return <Text size="sm" ff="monospace">{v.startsWith('RF') ? formatCreditorReference(v) : formatQrReference(v)}</Text>;
    case T.Barcode:
      return <Text size="sm" ff="monospace">{v}</Text>;
    default:
      return <Text size="sm">{v}</Text>;
  }
}

const placeholders: Record<number, string> = {
  [T.Text]: 'Any text',
  [T.Email]: 'name@example.ch',
  [T.Phone]: '+41 44 123 45 67',
  [T.Link]: 'https://…',
  [T.Date]: 'YYYY-MM-DD',
  [T.Barcode]: '7612345678900',
  [T.ReferenceNumber]: 'QR reference or RF…',
  [T.Amount]: '1234.50',
  [T.InternalLink]: '/invoice/…/detail',
};

interface FormValues {
  type: string | null;
  name: string;
  value: string;
}

/** Additional properties of a company: typed values, validated by type on both sides. */
export function Properties({ companyUuid, editable }: { companyUuid: string; editable: boolean }) {
  const queryClient = useQueryClient();
  const properties = useQuery(propertyListQuery(companyUuid));
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError, reset, formState } = useForm<FormValues>({ defaultValues: { type: '1', name: '', value: '' } });
  const type = Number(useWatch({ control, name: 'type' }) ?? 1);

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    const payload = { company: { uuid: companyUuid }, type: values.type ? Number(values.type) : null, name: values.name, value: values.value };
    const parsed = additionalPropertyInsertSchema.safeParse(payload);
    const known = ['type', 'name', 'value'];
    if (!parsed.success) {
      applyFieldErrors(setError, fieldErrors(parsed.error), known);
      return;
    }
    try {
      await insertProperty(parsed.data);
      await queryClient.invalidateQueries({ queryKey: companiesKey });
      reset({ type: values.type, name: '', value: '' });
    } catch (error) {
      const rest = applyFieldErrors(setError, serverFieldErrors(error), known, (p) => p.replace(/^data\./, ''));
      if (rest.length || !Object.keys(serverFieldErrors(error)).length) setFailure(rest.join('; ') || errorMessage(error));
    }
  });

  const remove = async (id: number) => {
    try {
      await deleteProperty(id);
      await queryClient.invalidateQueries({ queryKey: companiesKey });
      notifications.show({ color: 'green', message: 'Property deleted.' });
    } catch (error) {
      setFailure(errorMessage(error));
    }
  };

  return (
    <Stack gap="md">
      {properties.isError ? <ErrorAlert what="Could not load the properties" error={properties.error} onRetry={() => void properties.refetch()} /> : null}
      {!properties.data && !properties.isError ? <TableSkeleton rows={3} /> : null}
      {properties.data ? (
        properties.data.data.length === 0 ? (
          <Text c="dimmed" size="sm">No additional properties yet.</Text>
        ) : (
          <Table withTableBorder striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Value</Table.Th>
                <Table.Th w={50}>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {properties.data.data.map((property) => (
                <Table.Tr key={property.id}>
                  <Table.Td>{property.name}</Table.Td>
                  <Table.Td>{propertyTypeLabel(property.type)}</Table.Td>
                  <Table.Td>
                    <PropertyValue property={property} />
                  </Table.Td>
                  <Table.Td>
                    {editable ? (
                      <ActionIcon variant="subtle" color="gray" aria-label={`Delete property ${property.name}`} onClick={() => void remove(property.id)}>
                        <IconTrash size={16} />
                      </ActionIcon>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )
      ) : null}
      {editable ? (
        <Paper withBorder p="md">
          <form onSubmit={(event) => void submit(event)} noValidate>
            <Group align="flex-start" gap="sm" wrap="wrap">
              <Controller
                control={control}
                name="type"
                render={({ field, fieldState }) => (
                  <Select label="Type" w={200} data={propertyTypeOptions} value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
                )}
              />
              <Controller
                control={control}
                name="name"
                render={({ field, fieldState }) => <TextInput label="Name" w={200} {...field} error={fieldState.error?.message} />}
              />
              <Controller
                control={control}
                name="value"
                render={({ field, fieldState }) => (
                  <TextInput
                    label="Value"
                    style={{ flex: 1, minWidth: 220 }}
                    placeholder={placeholders[type]}
                    type={type === T.Date ? 'date' : type === T.Email ? 'email' : 'text'}
                    {...field}
                    error={fieldState.error?.message}
                  />
                )}
              />
              <Button type="submit" mt={25} loading={formState.isSubmitting}>
                Add property
              </Button>
            </Group>
          </form>
        </Paper>
      ) : null}
      {failure ? (
        <Alert color="red" variant="light" role="alert">
          {failure}
        </Alert>
      ) : null}
    </Stack>
  );
}
