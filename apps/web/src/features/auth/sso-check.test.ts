import { describe, expect, it } from 'vitest';
import { checkSsoReturn } from './sso-check';

const state = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const query = (params: Record<string, string>) => new URLSearchParams(params);

describe('checkSsoReturn (spec §5)', () => {
  it('accepts the three providers with code and a state naming the instance', () => {
    for (const provider of ['google', 'microsoft', 'swissid']) {
      expect(checkSsoReturn(provider, query({ code: 'c', state: state({ instance: 'acme' }), iss: 'x' }))).toEqual({ ok: true, provider });
    }
  });

  it('checks the provider first', () => {
    expect(checkSsoReturn('facebook', query({}))).toEqual({ ok: false, message: 'SSO provider not recognized' });
    expect(checkSsoReturn(undefined, query({}))).toEqual({ ok: false, message: 'SSO provider not recognized' });
  });

  it('needs both code and state', () => {
    expect(checkSsoReturn('google', query({ state: state({ instance: 'a' }) }))).toEqual({ ok: false, message: 'Code expected' });
    expect(checkSsoReturn('google', query({ code: 'c' }))).toEqual({ ok: false, message: 'Code expected' });
  });

  it('needs an instance string in the state', () => {
    expect(checkSsoReturn('google', query({ code: 'c', state: state({ instance: 3 }) }))).toEqual({ ok: false, message: 'instance wrong' });
    expect(checkSsoReturn('google', query({ code: 'c', state: 'garbage' }))).toEqual({ ok: false, message: 'instance wrong' });
  });
});
