import { describe, expect, it } from 'vitest';
import { decodeBase64UrlJson, encodeBase64UrlJson } from './base64url';

describe('base64url JSON', () => {
  it('round-trips UTF-8 without padding or URL-unsafe characters', () => {
    const value = { uuid: 'a', name: 'Zürcher Bäckerei & Söhne ✓' };
    const text = encodeBase64UrlJson(value);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeBase64UrlJson(text)).toEqual(value);
  });

  it('reads what Node writes as base64url', () => {
    const text = Buffer.from(JSON.stringify({ instance: 'x?y' })).toString('base64url');
    expect(decodeBase64UrlJson(text)).toEqual({ instance: 'x?y' });
  });

  it('gives undefined for text that is not base64url JSON', () => {
    expect(decodeBase64UrlJson('not-base64!')).toBeUndefined();
    expect(decodeBase64UrlJson(Buffer.from('plain').toString('base64url'))).toBeUndefined();
  });
});
