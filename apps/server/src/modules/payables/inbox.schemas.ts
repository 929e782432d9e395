/** Answer schemas of the inbox calls (/file/*, /mail/*), shared by their routes and OpenAPI. */
import { z } from 'zod';

export const fileAnswer = z.object({
  uuid: z.string(),
  name: z.string(),
  mimeType: z.string(),
  size: z.number().int().describe('bytes'),
  payable: z.object({ id: z.number().int() }).nullable().describe('the bill this file is the voucher of'),
  mail: z.object({ id: z.number().int() }).nullable().describe('the mail that brought it'),
  createdAt: z.string(),
});

export const mailAnswer = z.object({
  id: z.number().int(),
  status: z.number().int().describe('MailStatus: pending 1, processed 2, refused 3'),
  statusName: z.string(),
  from: z.string().describe('"Name <address>" or the address'),
  subject: z.string(),
  text: z.string().describe('the plain-text body (an HTML-only mail as text)'),
  receivedAt: z.string().describe('the Date header, else the time of import (UTC ISO 8601)'),
  messageId: z.string().nullable(),
  files: z.array(fileAnswer).describe('its attachments (PDF and images)'),
});
