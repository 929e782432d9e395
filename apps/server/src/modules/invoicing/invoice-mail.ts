/**
 * 'Send' by e-mail (issue 15 §1): post the invoice (pending → sent, as the status change does) and
 * e-mail its PDF with a share link to chosen contacts of its customer, from the instance's template
 * of the chosen language — all in one transaction, so either the posting and the stored messages
 * (with their delivery jobs) exist, or nothing does. One message per contact, each with its status
 * on the invoice's history. Kept apart from the status-change code on purpose (decision 023).
 */
import { formatAmount, formatDate, InvoiceStatus } from '@bilan/domain';
import type { Tx } from '../../db/database.js';
import { alreadyDone, AppError } from '../../http/errors.js';
import { contactsByIds } from '../companies/contacts.service.js';
import { messagesAbout, type Mailer, type MessageSummary } from '../messaging/messaging.service.js';
import { fillTemplate, invoiceTemplates, type TemplateLang } from '../messaging/templates.service.js';
import { getInvoice, loadRow, ownCompany } from './documents.service.js';
import { invoicingError } from './invoicing.errors.js';
import { renderInvoicePdf } from './invoicing.pdf.js';
import { changeStatus } from './postings.service.js';
import { shareInvoice } from './share-links.service.js';

export interface InvoiceEmailRequest {
  uuid: string;
  /** Contacts of the invoice's customer (companies module), 1–20. */
  contactIds: readonly number[];
  /** Template and PDF language; default the first contact's invoice language. */
  lang?: TemplateLang | undefined;
  /** Ledger date of the posting when the invoice is still pending; default today. */
  ledgerDate?: string | undefined;
  /** E-mail an invoice that is sent already (a reminder copy); without it such a request is a repeat (409 already_done). */
  resend?: boolean | undefined;
}

/**
 * Posts a pending invoice as sent and queues one e-mail per contact with the PDF (invoice with
 * QR-bill) attached and a fresh share link (a new link replaces the earlier one, share-links
 * service). Errors: 404 unknown invoice or contact (`contactIds`), 400 a contact of another
 * company, 409 `already_done` for an invoice sent already without `resend`, 409 for a paid or
 * denied invoice without `resend` or any lock-date refusal of the posting.
 */
export async function emailInvoice(
  tx: Tx,
  instanceId: string,
  userId: string | null,
  request: InvoiceEmailRequest,
  deps: { mailer: Mailer; publicUrl: string },
): Promise<{ status: number; messages: MessageSummary[] }> {
  // The lock makes parallel identical requests wait here; the first posts and mails, the others see
  // the invoice sent and answer already_done (unless they ask to resend).
  const row = await loadRow(tx, instanceId, request.uuid, true);
  const contacts = await contactsByIds(tx, request.contactIds);
  const foreign = contacts.find((contact) => contact.company.uuid !== row.company_uuid);
  if (foreign) throw new AppError('validation', `contactIds: ${foreign.name} is not a contact of the invoice's customer`, { contactIds: `${foreign.id} is not a contact of the invoice's customer` });
  if (row.status_id === InvoiceStatus.pending) {
    await changeStatus(tx, instanceId, userId, { uuid: request.uuid, status: InvoiceStatus.sent, ledgerDate: request.ledgerDate });
  } else if (!request.resend) {
    if (row.status_id === InvoiceStatus.sent) throw alreadyDone(`invoice ${request.uuid} is sent already: resend to e-mail it again`, { uuid: 'already sent' });
    throw invoicingError('status_not_allowed', 'only a pending invoice is sent; a paid or denied one is e-mailed again with resend', { uuid: 'not pending' });
  }
  const invoice = await getInvoice(tx, instanceId, request.uuid);
  const creditor = await ownCompany(tx, instanceId);
  if (!creditor) throw invoicingError('own_company_missing', 'own company not found');
  const lang = request.lang ?? contacts[0]!.lang;
  const pdf = await renderInvoicePdf(invoice, creditor, lang, false);
  const { token } = await shareInvoice(tx, instanceId, invoice.uuid);
  const template = (await invoiceTemplates(tx)).find((t) => t.lang === lang)!;
  const messages: MessageSummary[] = [];
  for (const contact of contacts) {
    const values = {
      refNumber: invoice.refNumber,
      customer: invoice.company.name,
      contact: contact.name,
      total: `${invoice.currency} ${formatAmount(invoice.totals.total)}`,
      dateDue: formatDate(invoice.dateDue),
      link: `${deps.publicUrl}/public/invoice/${token}`,
      sender: creditor.name,
    };
    messages.push(
      await deps.mailer.queue(tx, instanceId, userId, {
        kind: 'invoice',
        documentRef: invoice.uuid,
        to: [contact.email],
        subject: fillTemplate(template.subject, values),
        body: fillTemplate(template.body, values),
        attachments: [{ filename: `${invoice.refNumber}.pdf`, contentType: 'application/pdf', content: pdf }],
      }),
    );
  }
  return { status: invoice.status, messages };
}

/** The e-mails of an invoice (its history), newest first; 404 unknown invoice. */
export async function invoiceMessages(tx: Tx, instanceId: string, uuid: string): Promise<MessageSummary[]> {
  await loadRow(tx, instanceId, uuid);
  return messagesAbout(tx, 'invoice', uuid);
}
