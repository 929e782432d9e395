import { Route, Routes } from 'react-router';
import { BillAddPage } from '../features/payables/bill-add-page';
import { BillsPage } from '../features/payables/bills-page';
import { CreditorsPage } from '../features/payables/creditors-page';

/** /bill/*: list (/bill, ?filterStatus=true for open bills), /bill/add, /bill/creditors. */
export function Component() {
  return (
    <Routes>
      <Route index element={<BillsPage />} />
      <Route path="add" element={<BillAddPage />} />
      <Route path="creditors" element={<CreditorsPage />} />
      <Route path="*" element={<BillsPage />} />
    </Routes>
  );
}
