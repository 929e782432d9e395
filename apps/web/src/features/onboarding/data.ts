/**
 * Answers collected by the wizard, kept in sessionStorage so a reload resumes (spec §4
 * "Onboarding step is derived from collected data").
 */
import type { Address, OnboardingBankAccount, OnboardingCompany, OnboardingExtra } from '@bilan/domain';
import { readJson, sessionKeys, writeJson } from '../../lib/storage';

export interface OnboardingData {
  company?: OnboardingCompany;
  address?: Address;
  bankAccounts?: OnboardingBankAccount[];
  extra?: OnboardingExtra;
  /** Set once POST /api/instance/init succeeded, so a retry only sends the accounts. */
  companyUuid?: string;
}

export const STEP_COMPANY = 0;
export const STEP_ADDRESS = 1;
export const STEP_BANK_ACCOUNTS = 2;
export const STEP_EXTRA = 3;
export const STEP_END = 4;

/** none → company; company → address; address → bank accounts; bank accounts → extra; extra → end. */
export function deriveStep(data: OnboardingData): number {
  if (!data.company) return STEP_COMPANY;
  if (!data.address) return STEP_ADDRESS;
  if (!data.bankAccounts?.length) return STEP_BANK_ACCOUNTS;
  if (!data.extra) return STEP_EXTRA;
  return STEP_END;
}

export const loadOnboardingData = (): OnboardingData => readJson<OnboardingData>(sessionKeys.onboarding, 'session') ?? {};
export const saveOnboardingData = (data: OnboardingData): void => writeJson(sessionKeys.onboarding, data, 'session');
export const clearOnboardingData = (): void => writeJson(sessionKeys.onboarding, null, 'session');

/** Server field path → [step, form field] (spec §5 "Forms show server error data objects per field"). */
export function stepOfField(path: string): [number, string] | undefined {
  const [head, ...rest] = path.split('.');
  const field = rest.join('.');
  switch (head) {
    case 'company':
      return [STEP_COMPANY, field || 'name'];
    case 'address':
      return [STEP_ADDRESS, field.replace(/^country\.id$/, 'country') || 'street'];
    case 'accounts':
      return [STEP_BANK_ACCOUNTS, `accounts.${field}`];
    case 'extra':
      return [STEP_EXTRA, field || 'vat'];
    case 'currency':
      return [STEP_EXTRA, 'currency'];
    default:
      return undefined;
  }
}
