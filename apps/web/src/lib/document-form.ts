/**
 * The invoice form as other documents with an invoice's head and lines use it (quotes, recurring
 * templates; issue 15 §4). Features never import each other, so the route module hands the
 * invoicing feature's form to those pages as a component of this type.
 */
import type { ComponentType } from 'react';
import type { InvoiceInput, InvoiceItemInput } from '@bilan/domain';
import type { ApiResult } from './api';

type InvoiceDetail = ApiResult<'post', '/api/invoice/detail'>;

/** What the form edits, in the invoice's names (a quote's date is `dateInvoice`, its validity `dateDue`). */
export type DocumentFormValues = Pick<InvoiceDetail, 'refNumber' | 'company' | 'address' | 'paymentProfile' | 'vat' | 'currency' | 'fxRate' | 'dateInvoice' | 'dateDue' | 'description'> & {
  items: Pick<InvoiceDetail['items'][number], 'id' | 'name' | 'amount' | 'price' | 'discount' | 'discountAbs' | 'vat' | 'account'>[];
};

/** What the form hands over: the head and the lines (with their ids when editing). */
export interface DocumentFormPayload {
  head: Omit<InvoiceInput, 'items'>;
  items: (InvoiceItemInput & { id: number | null })[];
}

export type DocumentFormOptions = ApiResult<'get', '/api/invoice/form-options'>;

export type DocumentForm = ComponentType<{
  options: DocumentFormOptions;
  invoice?: DocumentFormValues;
  submitLabel: string;
  onSubmit: (payload: DocumentFormPayload) => Promise<unknown>;
  onCancel?: () => void;
  dateLabels?: { date: string; due: string };
  onCompanyChange?: (companyUuid: string | null) => void;
}>;
