import { AnalyticsPage } from '../features/analytics/analytics-page';

export function Component() {
  return <AnalyticsPage />;
}
