import { useState } from 'react';
import { Alert, Anchor, Loader, Stack, Text, TextInput, UnstyledButton, Paper, Group } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Country, isValidSwissUid, onboardingCompanySchema, type Address, type OnboardingCompany } from '@bilan/domain';
import { errorMessage } from '../../lib/errors';
import { payloadResolver } from '../../lib/forms';
import { registerDetail, registerStatus, searchRegister, type RegisterCompany } from './api';
import { StepActions } from './step-actions';
import { useServerErrors } from './use-server-errors';

interface CompanyStepProps {
  value?: OnboardingCompany;
  serverErrors?: Record<string, string>;
  onDone: (company: OnboardingCompany) => void;
  /** A company picked from the register, with its address when the register has a complete one. */
  onPicked?: (company: OnboardingCompany, address: Address | undefined) => void;
}

/**
 * Search of the Swiss commercial register (spec §2.9): results by name, then the picked company's
 * address by register id. When the register is not configured or not reachable it says so and
 * the manual form stays one click away.
 */
function RegisterSearch({ onPicked, onManual }: { onPicked: (company: OnboardingCompany, address: Address | undefined) => void; onManual: () => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [text] = useDebouncedValue(search.trim(), 350);
  const [picking, setPicking] = useState<number | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  const status = useQuery({ queryKey: ['company-register', 'status'], queryFn: ({ signal }) => registerStatus(signal), retry: false, staleTime: Infinity });
  const off = status.data?.configured === false;
  const results = useQuery({
    queryKey: ['company-register', text],
    queryFn: ({ signal }) => searchRegister(text, signal),
    enabled: text.length >= 3 && !off,
    retry: false,
    staleTime: 60_000,
  });

  const pick = async (company: RegisterCompany) => {
    setPicking(company.ehraid);
    setPickError(null);
    try {
      const detail = await registerDetail(text, company.ehraid);
      const a = detail.address;
      const address =
        a?.street && a.swissZipCode && a.town
          ? { street: a.street, houseNumber: a.houseNumber, zip: a.swissZipCode, city: a.town, country: { id: Country.Switzerland } }
          : undefined;
      onPicked({ name: detail.name, uid: detail.uid && isValidSwissUid(detail.uid) ? detail.uid : null }, address);
    } catch (error) {
      setPickError(errorMessage(error));
    } finally {
      setPicking(null);
    }
  };

  return (
    <Stack gap="sm">
      <TextInput
        label={t('Search the Swiss commercial register')}
        placeholder={t('Company name')}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={results.isFetching ? <Loader size="xs" /> : null}
        description={t('At least 3 letters. Picking a company fills in its name, UID and address.')}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        disabled={off}
        autoFocus
      />
      {off ? (
        <Alert color="yellow" variant="light" role="alert" title={t('The commercial register search is not available')}>
          {t('The Swiss commercial register is not connected to this installation. Please enter your company by hand.')}
        </Alert>
      ) : null}
      {results.isError ? (
        <Alert color="yellow" variant="light" role="alert" title={t('The commercial register search is not available')}>
          {errorMessage(results.error)}
        </Alert>
      ) : null}
      {pickError ? (
        <Alert color="red" variant="light" role="alert">
          {pickError}
        </Alert>
      ) : null}
      {results.data && text.length >= 3 ? (
        results.data.data.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('No registered company found for "{{text}}".', { text })}
          </Text>
        ) : (
          <Stack gap={4} role="list" aria-label={t('Register results')}>
            {results.data.data.map((company) => (
              <UnstyledButton key={company.ehraid} role="listitem" onClick={() => void pick(company)} disabled={picking !== null}>
                <Paper withBorder p="xs">
                  <Group justify="space-between" wrap="nowrap">
                    <div>
                      <Text size="sm" fw={600}>
                        {company.name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {[company.uid, company.legalForm, company.legalSeat].filter(Boolean).join(` · `)}
                      </Text>
                    </div>
                    {picking === company.ehraid ? <Loader size="xs" /> : null}
                  </Group>
                </Paper>
              </UnstyledButton>
            ))}
          </Stack>
        )
      ) : null}
      <Anchor component="button" type="button" onClick={onManual} ta="left">
        {t('We are not a registered Swiss company')}
      </Anchor>
    </Stack>
  );
}

interface CompanyFormValues {
  name: string;
  uid: string;
}

/** Step 1: register search or the manual legacy form (spec §2.9). */
export function CompanyStep({ value, serverErrors, onDone, onPicked }: CompanyStepProps) {
  const { t } = useTranslation();
  const [manual, setManual] = useState(Boolean(value) || Boolean(serverErrors));
  const { control, handleSubmit, setError, formState } = useForm<CompanyFormValues, unknown, OnboardingCompany>({
    defaultValues: { name: value?.name ?? '', uid: value?.uid ?? '' },
    resolver: payloadResolver(onboardingCompanySchema, (values: CompanyFormValues) => ({ name: values.name, uid: values.uid.trim() || null }), { known: ['name', 'uid'] }),
  });
  useServerErrors(setError, serverErrors);

  const submit = handleSubmit(onDone);

  if (!manual) {
    return <RegisterSearch onPicked={(company, address) => (onPicked ? onPicked(company, address) : onDone(company))} onManual={() => setManual(true)} />;
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('Enter your company as it should appear on invoices.')}
        </Text>
        <Controller
          control={control}
          name="name"
          render={({ field, fieldState }) => (
            <TextInput label={t('Company name')} required autoFocus autoComplete="organization" {...field} error={fieldState.error?.message} />
          )}
        />
        <Controller
          control={control}
          name="uid"
          render={({ field, fieldState }) => (
            <TextInput
              label={t('UID (optional)')}
              description={t('Swiss business identification number, if you have one')}
              placeholder="CHE-123.456.789"
              {...field}
              error={fieldState.error?.message}
            />
          )}
        />
        <Anchor component="button" type="button" size="sm" onClick={() => setManual(false)} ta="left">
          {t('Search the commercial register instead')}
        </Anchor>
        <StepActions error={formState.errors.root?.message} />
      </Stack>
    </form>
  );
}
