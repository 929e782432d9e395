/** Outbox and e-mail template calls (docs/api.md "Messaging", issue 15 §1). */
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, type ApiBody, type ApiResult } from '../../lib/api';

// Answers are typed from the route schemas (lib/api-schema.d.ts, `npm run gen:api`).
export type Outbox = ApiResult<'post', '/api/outbox/list'>;
export type Message = Outbox['data'][number];
export type MessageStatus = Message['status'];
export type Template = ApiResult<'get', '/api/message-template/list'>['data'][number];
export type TemplateLang = Template['lang'];

export const messagingKey = ['messaging'] as const;
export const OUTBOX_PAGE_SIZE = 50;

export const outboxQuery = (page: number, status?: MessageStatus) =>
  queryOptions({
    queryKey: [...messagingKey, 'outbox', page, status],
    queryFn: ({ signal }) => api.post('/api/outbox/list', { page, pageSize: OUTBOX_PAGE_SIZE, ...(status ? { status } : {}) }, { signal }),
    placeholderData: keepPreviousData,
    // Deliveries run in the background: keep the statuses fresh while the page is open.
    refetchInterval: 5000,
  });

export const templatesQuery = () =>
  queryOptions({ queryKey: [...messagingKey, 'templates'], queryFn: ({ signal }) => api.get('/api/message-template/list', { signal }) });

export const retryMessage = (uuid: string) => api.post('/api/outbox/retry', { uuid });
export const saveTemplate = (body: ApiBody<'/api/message-template/update'>) => api.post('/api/message-template/update', body);
export const jobsOverview = () => api.get('/napi/admin/jobs');
