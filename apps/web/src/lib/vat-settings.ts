/**
 * The instance's VAT settings (GET /api/accounting/vat/settings): the VAT page edits them, and the
 * documents read them (e.g. the send dialog's VAT period hint). Under the accounting query key,
 * so saving the settings refreshes every reader.
 */
import { queryOptions } from '@tanstack/react-query';
import { api } from './api';

export const vatSettingsQuery = () =>
  queryOptions({ queryKey: ['accounting', 'vat', 'settings'], queryFn: ({ signal }) => api.get('/api/accounting/vat/settings', { signal }) });
