/** Request and answer schemas of /api/company, /api/address, /api/payment-profile (docs/api.md "Companies"). */
import { z } from 'zod';
import { strictObject, zId, zUuid } from '@bilan/domain';

export { errors, errorsWithConflict, errorsWithNotFound, okSchema } from '../../http/schemas.js';

const countryRef = z.object({ id: z.number().int() });

export const addressAnswer = z.object({
  id: z.number().int(),
  company: z.object({ uuid: z.string() }),
  street: z.string(),
  houseNumber: z.string().nullable(),
  zip: z.string(),
  city: z.string(),
  country: countryRef,
});

export const companyAnswer = z.object({
  uuid: z.string(),
  name: z.string(),
  uid: z.string().nullable().describe('Swiss UID in the form CHE-123.456.789'),
  address: addressAnswer.omit({ company: true }).nullable().describe('first address of the company'),
  addressCount: z.number().int(),
  isOwn: z.boolean().describe("the workplace's own company (onboarding)"),
  dateAdded: z.string(),
});

export const paymentProfileAnswer = z.object({
  id: z.number().int(),
  company: z.object({ uuid: z.string(), name: z.string() }),
  account: z.object({ id: z.number().int(), number: z.string(), name: z.string() }).nullable(),
  type: z.number().int(),
  iban: z.string().nullable(),
  bic: z.string().nullable(),
  bankingReferenceNumber: z.string().nullable(),
  logIsLog: z.boolean(),
  archivable: z.boolean(),
  explorerLink: z.string().nullable(),
});

export const companySort = strictObject({
  by: z.enum(['name', 'uid', 'city', 'dateAdded']),
  order: z.enum(['asc', 'desc']).optional(),
});

export const companyRef = strictObject({ uuid: zUuid });
export const uuidId = strictObject({ id: zUuid });
export const numericId = strictObject({ id: zId });
export const pageSize = z.number().int({ error: 'must be an integer' }).min(1).max(500);
export const page = z.number().int({ error: 'must be an integer' }).min(1);
