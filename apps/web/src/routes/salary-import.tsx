import { SalaryImportPage } from '../features/salary/salary-import-page';

export function Component() {
  return <SalaryImportPage />;
}
