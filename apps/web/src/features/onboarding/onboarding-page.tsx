import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Box, Button, Container, Group, Loader, Paper, Stack, Stepper, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { errorMessage, serverFieldErrors } from '../../lib/errors';
import { msg } from '../../lib/i18n';
import { loadProfile } from '../../lib/session';
import { Page } from '../../ui/page';
import { AddressStep } from './address-step';
import { initAccounts, initInstance } from './api';
import { BankAccountsStep } from './bank-accounts-step';
import { CompanyStep } from './company-step';
import {
  clearOnboardingData,
  deriveStep,
  loadOnboardingData,
  saveOnboardingData,
  stepOfField,
  STEP_ADDRESS,
  STEP_BANK_ACCOUNTS,
  STEP_COMPANY,
  STEP_END,
  STEP_EXTRA,
  type OnboardingData,
} from './data';
import { ExtraStep } from './extra-step';

type Saving = { state: 'saving' } | { state: 'finished' } | { state: 'failed'; error: unknown };

const stepLabels = [msg('Company Information'), msg('Address'), msg('Bank Accounts'), msg('Extra'), msg('End')];

/** Step 5: POST /api/instance/init, then /api/instance/init/accounts, then home (spec §4). */
function EndStep({ data, onSaved, onFailed }: { data: OnboardingData; onSaved: (companyUuid: string) => void; onFailed: (error: unknown) => void }) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState<Saving>({ state: 'saving' });
  const started = useRef(false);

  const run = useCallback(async () => {
    setSaving({ state: 'saving' });
    try {
      if (!data.company || !data.address || !data.extra || !data.bankAccounts) throw new Error(t('Some answers are missing.'));
      let companyUuid = data.companyUuid;
      if (!companyUuid) {
        companyUuid = (await initInstance({ company: data.company, address: data.address, extra: data.extra })).company.uuid;
        onSaved(companyUuid);
      }
      await initAccounts({ company: { uuid: companyUuid }, accounts: data.bankAccounts, currency: data.extra.currency });
      setSaving({ state: 'finished' });
      clearOnboardingData();
      // The guard sends a finished session home as soon as the profile is loaded.
      await loadProfile();
    } catch (error) {
      setSaving({ state: 'failed', error });
      onFailed(error);
    }
  }, [data, onSaved, onFailed, t]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void run();
  }, [run]);

  if (saving.state === 'failed') {
    return (
      <Stack gap="sm">
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title={t('Your workplace could not be set up')} role="alert">
          {errorMessage(saving.error)}
        </Alert>
        <Group>
          <Button onClick={() => void run()}>{t('Try again')}</Button>
        </Group>
      </Stack>
    );
  }
  return (
    <Stack align="center" gap="sm" py="lg" aria-live="polite">
      {saving.state === 'finished' ? <IconCircleCheck size={40} color="var(--mantine-color-green-6)" aria-hidden /> : <Loader aria-label={t('Saving')} />}
      <Text>{saving.state === 'finished' ? t('Finished, redirecting you') : t('Setting up your workplace…')}</Text>
    </Stack>
  );
}

/** /onboarding: the four-step wizard; the step follows from the answers collected so far. */
export function OnboardingPage() {
  const { t } = useTranslation();
  const [data, setData] = useState<OnboardingData>(loadOnboardingData);
  /** A completed step reopened by the user; otherwise the derived step is shown. */
  const [editing, setEditing] = useState<number | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<number, Record<string, string>>>({});
  const derived = deriveStep(data);
  const step = editing ?? derived;

  const update = (patch: Partial<OnboardingData>) => {
    setData((current) => {
      const next = { ...current, ...patch };
      saveOnboardingData(next);
      return next;
    });
    setEditing(null);
  };

  const onSaved = useCallback((companyUuid: string) => {
    setData((current) => {
      const next = { ...current, companyUuid };
      saveOnboardingData(next);
      return next;
    });
  }, []);

  /** Field errors of the server go back to the step that asked for the field. */
  const onFailed = useCallback((error: unknown) => {
    const byStep: Record<number, Record<string, string>> = {};
    let first: number | undefined;
    for (const [path, message] of Object.entries(serverFieldErrors(error))) {
      const target = stepOfField(path.replace(/^data\./, ''));
      if (!target) continue;
      const [targetStep, field] = target;
      (byStep[targetStep] ??= {})[field] = message;
      first = first === undefined ? targetStep : Math.min(first, targetStep);
    }
    if (first !== undefined) {
      setServerErrors(byStep);
      setEditing(first);
    }
  }, []);

  const back = (to: number) => () => setEditing(to);
  const errorsOf = (target: number) => serverErrors[target];

  return (
    <Box bg="gray.0" mih="100vh" py="xl">
      <Container size="md">
        <Page
          title={t('Set up your workplace')}
          actions={
            <Anchor component={Link} to={paths.logout.getHref()} size="sm">
              {t('Logout')}
            </Anchor>
          }
        >
          <Paper withBorder radius="md" p="lg">
            <Stepper
              active={step}
              onStepClick={(target) => {
                if (target < derived && step !== STEP_END) setEditing(target);
              }}
              allowNextStepsSelect={false}
              size="sm"
            >
              {stepLabels.map((label, index) => (
                <Stepper.Step key={label} label={t(label)} allowStepSelect={index < derived && step !== STEP_END} />
              ))}
            </Stepper>
            <Box mt="xl">
              <Title order={2} size="h4" mb="sm">
                {t(stepLabels[step]!)}
              </Title>
              {step === STEP_COMPANY ? (
                <CompanyStep
                  value={data.company}
                  serverErrors={errorsOf(STEP_COMPANY)}
                  onDone={(company) => update({ company })}
                  onPicked={(company, address) => update(address ? { company, address } : { company })}
                />
              ) : null}
              {step === STEP_ADDRESS ? (
                <AddressStep
                  value={data.address}
                  serverErrors={errorsOf(STEP_ADDRESS)}
                  onBack={back(STEP_COMPANY)}
                  onDone={(address) => update({ address })}
                />
              ) : null}
              {step === STEP_BANK_ACCOUNTS ? (
                <BankAccountsStep
                  value={data.bankAccounts}
                  serverErrors={errorsOf(STEP_BANK_ACCOUNTS)}
                  onBack={back(STEP_ADDRESS)}
                  onDone={(bankAccounts) => update({ bankAccounts })}
                />
              ) : null}
              {step === STEP_EXTRA ? (
                <ExtraStep value={data.extra} serverErrors={errorsOf(STEP_EXTRA)} onBack={back(STEP_BANK_ACCOUNTS)} onDone={(extra) => update({ extra })} />
              ) : null}
              {step === STEP_END ? <EndStep data={data} onSaved={onSaved} onFailed={onFailed} /> : null}
            </Box>
          </Paper>
        </Page>
      </Container>
    </Box>
  );
}
