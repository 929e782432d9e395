import { Route, Routes, useParams } from 'react-router';
import { InboxFilePage, InboxPage } from '../features/payables/inbox-page';
import { MailDetailPage, MailPage } from '../features/payables/mail-page';
import { NotFound } from '../ui/not-found';

function MailRoute() {
  const id = Number(useParams().id);
  if (!Number.isInteger(id) || id < 1) return <NotFound />;
  return <MailDetailPage key={id} id={id} />;
}

/** /inbox/*: the inbox, /inbox/mail (mails) and /inbox/mail/{id}, and /inbox/{file uuid}, a bill draft beside the file. */
export function Component() {
  return (
    <Routes>
      <Route index element={<InboxPage />} />
      <Route path="mail" element={<MailPage />} />
      <Route path="mail/:id" element={<MailRoute />} />
      <Route path="*" element={<InboxFilePage />} />
    </Routes>
  );
}
