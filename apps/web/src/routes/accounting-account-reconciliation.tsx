import { useParams } from 'react-router';
import { NotFound } from '../ui/not-found';
import { ReconciliationPage } from '../features/payables/reconciliation-page';

export function Component() {
  const id = Number(useParams().id);
  if (!Number.isInteger(id) || id < 1) return <NotFound />;
  return <ReconciliationPage key={id} accountId={id} />;
}
