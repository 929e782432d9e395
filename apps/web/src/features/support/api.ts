/** Support request calls (issue 16 §2, spec §7.2 POST /napi/support/send). */
import { queryOptions } from '@tanstack/react-query';
import { api, fetchFile, type ApiBody, type ApiResult } from '../../lib/api';
import { saveBlob } from '../../lib/save-file';

export type SupportRequest = ApiResult<'post', '/napi/support/list'>['data'][number];
export type SupportStatus = SupportRequest['status'];
export type SendBody = ApiBody<'/napi/support/send'>;

export const supportKey = ['support'] as const;

/** Largest screenshot or file, bytes (the server refuses more). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

export const ownRequestsQuery = () =>
  queryOptions({ queryKey: [...supportKey, 'own'], queryFn: () => api.post('/napi/support/list', {}) });

export const queueQuery = (status: SupportStatus | undefined) =>
  queryOptions({
    queryKey: [...supportKey, 'queue', status],
    queryFn: () => api.post('/napi/admin/support/list', status ? { status } : {}),
    refetchInterval: 30_000,
  });

export const sendRequest = (body: SendBody) => api.post('/napi/support/send', body);
export const followUp = (uuid: string, message: string) => api.post('/napi/support/follow-up', { uuid, message });
export const answerRequest = (uuid: string, message: string) => api.post('/napi/admin/support/answer', { uuid, message });
export const setRequestStatus = (uuid: string, status: SupportStatus) => api.post('/napi/admin/support/status', { uuid, status });

export async function downloadAttachment(request: SupportRequest): Promise<void> {
  const response = await fetchFile('GET', `/napi/admin/support/attachment?uuid=${encodeURIComponent(request.uuid)}`);
  saveBlob(await response.blob(), request.attachment?.filename ?? 'attachment');
}

/** The file as the send call takes it: name, media type and base64 content. */
export async function fileBody(file: File): Promise<NonNullable<SendBody['file']>> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { name: file.name.slice(0, 255) || 'file', contentType: file.type || 'application/octet-stream', content: btoa(binary) };
}
