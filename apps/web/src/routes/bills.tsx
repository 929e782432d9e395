import { Route, Routes, useParams } from 'react-router';
import { BillAddPage } from '../features/payables/bill-add-page';
import { BillDetailPage, BillEditPage } from '../features/payables/bill-detail-page';
import { BillsPage } from '../features/payables/bills-page';
import { CreditorsPage } from '../features/payables/creditors-page';
import { NotFound } from '../ui/not-found';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function BillRoute({ edit = false }: { edit?: boolean }) {
  const uuid = useParams().uuid ?? '';
  if (!UUID.test(uuid)) return <NotFound />;
  return edit ? <BillEditPage key={uuid} uuid={uuid} /> : <BillDetailPage key={uuid} uuid={uuid} />;
}

/** /bill/*: list (/bill, ?filterStatus=true for open bills), /bill/add, /bill/creditors, /bill/{uuid}/detail and /edit. */
export function Component() {
  return (
    <Routes>
      <Route index element={<BillsPage />} />
      <Route path="add" element={<BillAddPage />} />
      <Route path="creditors" element={<CreditorsPage />} />
      <Route path=":uuid/detail" element={<BillRoute />} />
      <Route path=":uuid/edit" element={<BillRoute edit />} />
      <Route path="*" element={<BillsPage />} />
    </Routes>
  );
}
