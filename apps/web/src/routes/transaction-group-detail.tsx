import { useParams } from 'react-router';
import { NotFound } from '../ui/not-found';
import { TransactionGroupDetailPage } from '../features/payables/transaction-group-detail-page';

export function Component() {
  const id = Number(useParams().id);
  if (!Number.isInteger(id) || id < 1) return <NotFound />;
  return <TransactionGroupDetailPage key={id} id={id} />;
}
