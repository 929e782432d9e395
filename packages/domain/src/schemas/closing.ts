/**
 * Year-end closing (issue 12 §3): the settings change and the booking body, one schema each for the
 * web form and the route (STYLE.md #3).
 */
import { z } from 'zod';
import { strictObject, zId } from '../validators/common.js';

const month = z.number({ error: 'must be a month 1 to 12' }).int('must be a month 1 to 12').min(1, 'must be a month 1 to 12').max(12, 'must be a month 1 to 12');

/**
 * settings/update: the month the fiscal year starts in (1 = January, the calendar year) and the
 * profit-or-loss account (`null`: the chart's 2979 "Jahresgewinn oder -verlust"); each optional.
 */
export const accountingSettingsPatchSchema = strictObject({
  fiscalYearStartMonth: month.optional(),
  profitLossAccount: strictObject({ id: zId }).nullable().optional(),
});
export type AccountingSettingsPatch = z.infer<typeof accountingSettingsPatchSchema>;

/** A failed check acknowledged with a note (closing/book `acknowledgements`). */
export const checkAcknowledgementSchema = strictObject({
  key: z.string().min(1, 'give the key of the check'),
  note: z.string().trim().min(1, 'a note is required to acknowledge a failed check').max(1000, 'at most 1000 characters'),
});
