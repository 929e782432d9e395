import { CompanyAddPage } from '../features/companies/company-add-page';

export function Component() {
  return <CompanyAddPage />;
}
