import { CompaniesPage } from '../features/companies/companies-page';

export function Component() {
  return <CompaniesPage />;
}
