/**
 * The `{b64Instance}` of /login/{b64Instance}: base64url JSON of the instance uuid, name and,
 * once known, the last user's uuid (spec §2.8, §6 "Passkey login is offered only when the encoded
 * instance data carries a user uuid").
 */
import { decodeBase64UrlJson, encodeBase64UrlJson } from '../../lib/base64url';
import { readJson, storageKeys, writeJson } from '../../lib/storage';

export interface LoginInstance {
  uuid: string;
  name: string;
  userUuid?: string;
}

export function encodeLoginInstance({ uuid, name, userUuid }: LoginInstance): string {
  return encodeBase64UrlJson(userUuid ? { uuid, name, userUuid } : { uuid, name });
}

/** The decoded instance, or undefined when the parameter is not one (→ 'Issue with URL'). */
export function decodeLoginInstance(param: string): LoginInstance | undefined {
  const value = decodeBase64UrlJson(param);
  if (typeof value !== 'object' || value === null) return undefined;
  const { uuid, name, userUuid } = value as Record<string, unknown>;
  if (typeof uuid !== 'string' || !uuid || typeof name !== 'string' || !name) return undefined;
  return typeof userUuid === 'string' && userUuid ? { uuid, name, userUuid } : { uuid, name };
}

type LastUsers = Record<string, string>;

/** The last user who signed in to this instance on this browser, if any. */
export const rememberedUser = (instanceUuid: string): string | undefined =>
  readJson<LastUsers>(storageKeys.lastUsers)?.[instanceUuid];

export function rememberUser(instanceUuid: string, userUuid: string): void {
  const users = readJson<LastUsers>(storageKeys.lastUsers) ?? {};
  writeJson(storageKeys.lastUsers, { ...users, [instanceUuid]: userUuid });
}
