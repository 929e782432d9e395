/** Error codes of the salary module (STYLE.md #8, http/errors.ts `moduleErrors`). */
import { moduleErrors } from '../../http/errors.js';

export const salaryError = moduleErrors({
  invalid_wage_types: 'validation', // a mapping with a duplicate code or an account the chart lacks
  import_invalid: 'validation', // a payroll file with bad rows (`fields` names line and column; nothing is posted)
  period_locked: 'conflict', // a salary date on or before the lock date
});
