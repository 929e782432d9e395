import { useState } from 'react';
import { Anchor, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { Controller, useForm } from 'react-hook-form';
import { fieldErrors, onboardingCompanySchema, type OnboardingCompany } from '@bilan/domain';
import { applyFieldErrors } from '../../lib/forms';
import { StepActions } from './step-actions';
import { useServerErrors } from './use-server-errors';

interface CompanyStepProps {
  value?: OnboardingCompany;
  serverErrors?: Record<string, string>;
  onDone: (company: OnboardingCompany) => void;
}

interface CompanyFormValues {
  name: string;
  uid: string;
}

/** Step 1: register search (issue 4 connects it) or the manual legacy form (spec §2.9). */
export function CompanyStep({ value, serverErrors, onDone }: CompanyStepProps) {
  const [manual, setManual] = useState(Boolean(value) || Boolean(serverErrors));
  const { control, handleSubmit, setError } = useForm<CompanyFormValues>({
    defaultValues: { name: value?.name ?? '', uid: value?.uid ?? '' },
  });
  useServerErrors(setError, serverErrors);

  const submit = handleSubmit((values) => {
    const parsed = onboardingCompanySchema.safeParse({ name: values.name, uid: values.uid.trim() || null });
    if (!parsed.success) {
      applyFieldErrors(setError, fieldErrors(parsed.error), ['name', 'uid']);
      return;
    }
    onDone(parsed.data);
  });

  if (!manual) {
    return (
      <Stack gap="sm">
        <TextInput
          label="Search the Swiss commercial register"
          placeholder="Company name"
          leftSection={<IconSearch size={16} aria-hidden />}
          disabled
          description="The Swiss commercial register is not connected yet. Please enter your company by hand for now."
        />
        <Anchor component="button" type="button" onClick={() => setManual(true)} ta="left">
          We are not a registered Swiss company
        </Anchor>
      </Stack>
    );
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Enter your company as it should appear on invoices.
        </Text>
        <Controller
          control={control}
          name="name"
          render={({ field, fieldState }) => (
            <TextInput label="Company name" required autoFocus autoComplete="organization" {...field} error={fieldState.error?.message} />
          )}
        />
        <Controller
          control={control}
          name="uid"
          render={({ field, fieldState }) => (
            <TextInput
              label="UID (optional)"
              description="Swiss business identification number, if you have one"
              placeholder="CHE-123.456.789"
              {...field}
              error={fieldState.error?.message}
            />
          )}
        />
        <Anchor component="button" type="button" size="sm" onClick={() => setManual(false)} ta="left">
          Search the commercial register instead
        </Anchor>
        <StepActions />
      </Stack>
    </form>
  );
}
