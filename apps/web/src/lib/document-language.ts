/**
 * The language of a customer's documents (invoice, credit note and quote PDFs): the one the
 * invoice e-mail uses too (server invoice-mail.ts) — the customer's first contact's invoice
 * language — else the user's own. A Swiss business writes to a customer in Lausanne in French
 * whatever language its bookkeeper reads.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from './api';
import { currentLanguage, type Language } from './i18n';

/** A company's contact people (issue 15 §1), oldest first; shared by the companies and invoicing features. */
export const companyContactsQuery = (companyUuid: string) =>
  queryOptions({
    queryKey: ['companies', 'contacts', companyUuid],
    queryFn: ({ signal }) => api.post('/api/company/contact/list', { company: { uuid: companyUuid } }, { signal }),
  });

/**
 * `[language, choose]` for a document of the company: the user's choice once made, else the first
 * contact's language, else the UI language. Without a company (not loaded yet) the UI language.
 */
export function useDocumentLanguage(companyUuid: string | null | undefined): [Language, (language: Language) => void] {
  const [chosen, choose] = useState<Language | null>(null);
  const contacts = useQuery({ ...companyContactsQuery(companyUuid ?? ''), enabled: !!companyUuid });
  return [chosen ?? contacts.data?.data[0]?.lang ?? currentLanguage(), choose];
}
