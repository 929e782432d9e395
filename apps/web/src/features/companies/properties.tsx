import { useState } from 'react';
import { ActionIcon, Alert, Anchor, Badge, Button, Group, Paper, Select, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconExternalLink, IconTrash, IconX } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { AdditionalPropertyType as T, additionalPropertyInsertSchema, type AdditionalPropertyInsert } from '@bilan/domain';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { applyFieldErrors, payloadResolver } from '../../lib/forms';
import { ErrorAlert } from '../../ui/error-alert';
import { TableSkeleton } from '../../ui/table-skeleton';
import { companiesKey, deleteProperty, insertProperty, instanceDetailQuery, propertyListQuery, type AdditionalProperty } from './api';
import { propertyDisplay, type Barcode } from './property-display';
import { propertyTypeLabel, propertyTypeOptions } from './labels';
import { useTranslation } from 'react-i18next';
import { msg } from '../../lib/i18n';

/** A linear barcode drawn as SVG bars (quiet zone of 10 modules each side), its text below. */
export function BarcodeSvg({ barcode }: { barcode: Barcode }) {
  const { t } = useTranslation();
  const module = 2;
  const quiet = 10;
  const barHeight = 48;
  const width = (barcode.modules.length + 2 * quiet) * module;
  const bars: { x: number; w: number }[] = [];
  for (const run of barcode.modules.matchAll(/1+/g)) bars.push({ x: (quiet + run.index) * module, w: run[0].length * module });
  return (
    <svg
      role="img"
      aria-label={t('{{format}} barcode {{text}}', { format: barcode.format, text: barcode.text })}
      width={width}
      height={barHeight + 18}
      viewBox={`0 0 ${width} ${barHeight + 18}`}
      data-barcode-format={barcode.format}
      style={{ background: '#fff', display: 'block' }}
    >
      {bars.map((bar) => (
        <rect key={bar.x} x={bar.x} y={2} width={bar.w} height={barHeight} fill="#000" />
      ))}
      <text x={width / 2} y={barHeight + 15} textAnchor="middle" fontFamily="monospace" fontSize={12} fill="#000">
        {barcode.text}
      </text>
    </svg>
  );
}

/**
 * A property value shown by its type (`propertyDisplay`): http(s) links opened safely, mailto,
 * tel in E.164, in-app links, dates dd.mm.yyyy, amounts fr-CH with currency, references grouped
 * with their check, barcodes drawn.
 */
export function PropertyValue({ property, currency }: { property: AdditionalProperty; currency: string }) {
  const { t } = useTranslation();
  const display = propertyDisplay(property.type, property.value, currency);
  switch (display.kind) {
    case 'external':
      return (
        <Anchor href={display.href} target="_blank" rel="noopener noreferrer" size="sm">
          <Group gap={4} wrap="nowrap" component="span">
            {display.text}
            <IconExternalLink size={14} aria-label={t('opens in a new tab')} />
          </Group>
        </Anchor>
      );
    case 'mailto':
    case 'tel':
      return <Anchor href={display.href} size="sm">{display.text}</Anchor>;
    case 'internal':
      return <Anchor component={Link} to={display.to} size="sm">{display.text}</Anchor>;
    case 'reference':
      return (
        <Group gap="xs" wrap="nowrap">
          <Text size="sm" ff="monospace">{display.text}</Text>
          <Badge size="sm" variant="light" color={display.valid ? 'green' : 'red'} leftSection={display.valid ? <IconCheck size={12} aria-hidden /> : <IconX size={12} aria-hidden />}>
            {display.valid ? t(display.label) : t('{{reference}}: check digit wrong', { reference: t(display.label) })}
          </Badge>
        </Group>
      );
    case 'barcode':
      return <BarcodeSvg barcode={display.barcode} />;
    default:
      return <Text size="sm" ff={display.mono ? 'monospace' : undefined}>{display.text}</Text>;
  }
}

const placeholders: Record<number, string> = {
  [T.Text]: msg('Any text'),
  [T.Email]: 'name@example.ch',
  [T.Phone]: '+41 44 123 45 67',
  [T.Link]: 'https://…',
  [T.Date]: 'YYYY-MM-DD',
  [T.Barcode]: '7612345678900',
  [T.ReferenceNumber]: msg('QR reference or RF…'),
  [T.Amount]: msg('1234.50 or 1234.50 EUR'),
  [T.InternalLink]: '/invoice/…/detail',
};

interface FormValues {
  type: string | null;
  name: string;
  value: string;
}

const known = ['type', 'name', 'value'];

/** Additional properties of a company: typed values, validated by type on both sides. */
export function Properties({ companyUuid, editable }: { companyUuid: string; editable: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const properties = useQuery(propertyListQuery(companyUuid));
  const currency = useQuery(instanceDetailQuery()).data?.currency ?? 'CHF';
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit, setError, reset, formState } = useForm<FormValues, unknown, AdditionalPropertyInsert>({
    defaultValues: { type: '1', name: '', value: '' },
    resolver: payloadResolver(additionalPropertyInsertSchema, (values: FormValues) => ({
      company: { uuid: companyUuid },
      type: values.type ? Number(values.type) : null,
      name: values.name,
      value: values.value,
    }), { known }),
  });
  const type = Number(useWatch({ control, name: 'type' }) ?? 1);

  const submit = handleSubmit(async (data) => {
    setFailure(null);
    try {
      await insertProperty(data);
      await queryClient.invalidateQueries({ queryKey: companiesKey });
      reset({ type: String(data.type), name: '', value: '' });
    } catch (error) {
      const rest = applyFieldErrors(setError, serverFieldErrors(error), known, (p) => p.replace(/^data\./, ''));
      if (rest.length || !Object.keys(serverFieldErrors(error)).length) setFailure(rest.join('; ') || errorMessage(error));
    }
  });

  const remove = async (id: number) => {
    try {
      await deleteProperty(id);
      await queryClient.invalidateQueries({ queryKey: companiesKey });
      notifications.show({ color: 'green', message: t('Property deleted.') });
    } catch (error) {
      setFailure(errorMessage(error));
    }
  };

  return (
    <Stack gap="md">
      {properties.isError ? <ErrorAlert what={t('Could not load the properties')} error={properties.error} onRetry={() => void properties.refetch()} /> : null}
      {!properties.data && !properties.isError ? <TableSkeleton rows={3} /> : null}
      {properties.data ? (
        properties.data.data.length === 0 ? (
          <Text c="dimmed" size="sm">{t('No additional properties yet.')}</Text>
        ) : (
          <Table withTableBorder striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Name')}</Table.Th>
                <Table.Th>{t('Type')}</Table.Th>
                <Table.Th>{t('Value')}</Table.Th>
                <Table.Th w={50}>
                  <VisuallyHidden>{t('Actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {properties.data.data.map((property) => (
                <Table.Tr key={property.id}>
                  <Table.Td>{property.name}</Table.Td>
                  <Table.Td>{t(propertyTypeLabel(property.type))}</Table.Td>
                  <Table.Td>
                    <PropertyValue property={property} currency={currency} />
                  </Table.Td>
                  <Table.Td>
                    {editable ? (
                      <ActionIcon variant="subtle" color="gray" aria-label={t('Delete property {{name}}', { name: property.name })} onClick={() => void remove(property.id)}>
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
                  <Select label={t('Type')} w={200} data={propertyTypeOptions.map((option) => ({ ...option, label: t(option.label) }))} allowDeselect={false} value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
                )}
              />
              <Controller
                control={control}
                name="name"
                render={({ field, fieldState }) => <TextInput label={t('Name')} w={200} {...field} error={fieldState.error?.message} />}
              />
              <Controller
                control={control}
                name="value"
                render={({ field, fieldState }) => (
                  <TextInput
                    label={t('Value')}
                    style={{ flex: 1, minWidth: 220 }}
                    placeholder={placeholders[type] ? t(placeholders[type]) : undefined}
                    type={type === T.Date ? 'date' : type === T.Email ? 'email' : 'text'}
                    {...field}
                    error={fieldState.error?.message}
                  />
                )}
              />
              <Button type="submit" mt={25} loading={formState.isSubmitting}>
                {t('Add property')}
              </Button>
            </Group>
          </form>
        </Paper>
      ) : null}
      {failure || formState.errors.root ? (
        <Alert color="red" variant="light" role="alert">
          {failure ?? formState.errors.root?.message}
        </Alert>
      ) : null}
    </Stack>
  );
}
