import { CompanyPage } from '../features/companies/company-page';

export function Component() {
  return <CompanyPage />;
}
