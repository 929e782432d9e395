import { formatAmount, formatDate, toMoney } from '@bilan/domain';
import { useTranslation } from 'react-i18next';

interface SparklineProps {
  values: string[];
  dates: string[];
  width?: number;
  height?: number;
}

/** 12 month-end balances as a line. Floats are used for pixel positions only, never for amounts. */
export function Sparkline({ values, dates, width = 220, height = 44 }: SparklineProps) {
  const { t } = useTranslation();
  const numbers = values.map((value) => {
    try {
      return toMoney(value).toNumber();
    } catch {
      return 0;
    }
  });
  // Scaled to the data so the trend shows; the zero line only when zero is within the range.
  const min = Math.min(...numbers);
  const max = Math.max(...numbers);
  const span = max - min || 1;
  const showZero = min <= 0 && max >= 0;
  const step = numbers.length > 1 ? width / (numbers.length - 1) : 0;
  const y = (n: number) => height - 3 - ((n - min) / span) * (height - 6);
  const points = numbers.map((n, i) => `${(i * step).toFixed(1)},${y(n).toFixed(1)}`).join(' ');
  const summary = values.map((value, i) => `${formatDate(dates[i])}: ${formatAmount(value)}`).join('; ');

  return (
    <svg className="sparkline" width="100%" height={height} viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" role="img" aria-label={t('Month-end balances. {{summary}}', { summary })}>
      {showZero ? <line x1={0} x2={width} y1={y(0)} y2={y(0)} stroke="var(--mantine-color-gray-4)" strokeDasharray="3 3" /> : null}
      <polyline points={points} fill="none" stroke="var(--mantine-primary-color-filled)" strokeWidth={1.8} vectorEffect="non-scaling-stroke" />
      {numbers.map((n, i) => (
        <circle key={i} cx={i * step} cy={y(n)} r={2.2} fill="var(--mantine-primary-color-filled)">
          <title>{`${formatDate(dates[i])}: ${formatAmount(values[i])}`}</title>
        </circle>
      ))}
    </svg>
  );
}
