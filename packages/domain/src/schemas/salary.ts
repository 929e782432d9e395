/** Salary import bodies (issue 16 §3, decision 026), shared by the routes and the /salary/import page. */
import { z } from 'zod';
import { SALARY_GROUPINGS } from '../salary.js';
import { ruleError, strictObject } from '../validators/common.js';

const accountNumber = z.string().regex(/^[0-9]{4,10}$/, { error: 'an account number has 4 to 10 digits' });

/** One row of the wage-type mapping. */
export const salaryWageTypeSchema = strictObject({
  code: z.string().trim().min(1, { error: 'This field is required' }).max(40, { error: 'at most 40 characters' }),
  name: z.string().trim().max(200, { error: 'at most 200 characters' }).default(''),
  debitAccount: accountNumber.nullable().default(null),
  creditAccount: accountNumber.nullable().default(null),
  isNetPay: z.boolean().default(false),
});

/** The whole mapping of the instance (wage-type/save), replacing the saved one. */
export const salaryWageTypesSchema = strictObject({
  data: z.array(salaryWageTypeSchema).max(500, { error: 'at most 500 wage types' }),
});

/**
 * A payroll journal upload: CSV text, or an XLSX workbook in base64 (`encoding`), with the choices
 * of the import: one entry per period or per employee, and net salaries as claims to pay.
 */
export const salaryImportSchema = strictObject({
  file: strictObject({
    name: z.string().trim().max(200, { error: 'at most 200 characters' }).default(''),
    encoding: z.enum(['text', 'base64'], { error: ruleError('expected text or base64') }).default('text'),
    content: z.string().min(1, { error: 'the file is empty' }),
  }),
  groupBy: z.enum(SALARY_GROUPINGS, { error: ruleError('expected period or employee') }).default('period'),
  netClaims: z.boolean().default(false),
});
export type SalaryImportInput = z.input<typeof salaryImportSchema>;
