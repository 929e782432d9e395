import { Route, Routes } from 'react-router';
import { InboxFilePage, InboxPage } from '../features/payables/inbox-page';

/** /inbox/*: the inbox list and /inbox/{file uuid}, a bill draft beside the file. */
export function Component() {
  return (
    <Routes>
      <Route index element={<InboxPage />} />
      <Route path="*" element={<InboxFilePage />} />
    </Routes>
  );
}
