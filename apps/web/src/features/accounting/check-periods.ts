/**
 * Periods of the accounting checks page: the presets a Treuhänder picks (this year, last year, the
 * quarters of this year), as inclusive YYYY-MM-DD ranges. Pure, so it is tested without a browser.
 */

export interface Period {
  dateFrom: string;
  dateTo: string;
}

export interface PeriodPreset extends Period {
  /** Stable key, e.g. 'q2'. */
  key: string;
  label: string;
}

const QUARTER_ENDS = ['03-31', '06-30', '09-30', '12-31'] as const;

/** This year to today, last year, and Q1–Q4 of this year; `today` is YYYY-MM-DD. */
export function periodPresets(today: string): PeriodPreset[] {
  const year = Number(today.slice(0, 4));
  return [
    { key: 'this-year', label: `This year (${year})`, dateFrom: `${year}-01-01`, dateTo: today },
    { key: 'last-year', label: `Last year (${year - 1})`, dateFrom: `${year - 1}-01-01`, dateTo: `${year - 1}-12-31` },
    ...QUARTER_ENDS.map((end, index) => ({
      key: `q${index + 1}`,
      label: `Q${index + 1}`,
      dateFrom: `${year}-${String(index * 3 + 1).padStart(2, '0')}-01`,
      dateTo: `${year}-${end}`,
    })),
  ];
}

/** The preset with exactly this period, if any (to show it as chosen). */
export function presetOf(presets: readonly PeriodPreset[], period: Period): PeriodPreset | undefined {
  return presets.find((preset) => preset.dateFrom === period.dateFrom && preset.dateTo === period.dateTo);
}
