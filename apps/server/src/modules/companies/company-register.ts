/**
 * Adapter for the Swiss commercial register, Zefix public REST API (spec §2.9, §7.1 "Company
 * register search"): `POST /api/v1/company/search {name, activeOnly}` and
 * `GET /api/v1/company/ehraid/{id}`, HTTP Basic credentials issued by the register. Answers are
 * mapped to the onboarding's shape: name, register id, UID and address (street, houseNumber, town,
 * swissZipCode). Not configured → 503, unreachable or failing → 502; the onboarding step then
 * offers the manual form.
 */
import { formatSwissUid } from '@bilan/domain';
import type { Config } from '../../config.js';
import { companyError } from './companies.errors.js';

export interface RegisterCompany {
  name: string;
  /** Zefix EHRA-ID, the register's company id. */
  ehraid: number;
  /** UID as CHE-123.456.789, null when the register has none. */
  uid: string | null;
  legalSeat: string | null;
  legalForm: string | null;
  status: string | null;
}

export interface RegisterCompanyDetail extends RegisterCompany {
  address: { street: string | null; houseNumber: string | null; town: string | null; swissZipCode: string | null } | null;
}

const TIMEOUT_MS = 8000;

export const registerNotConfigured = () =>
  companyError('register_not_configured', 'The Swiss company register search is not configured; enter the company by hand.', undefined, { configured: false });
const registerUnreachable = (detail: string) =>
  companyError('register_unreachable', `The Swiss company register could not be reached (${detail}); enter the company by hand.`, undefined, {
    configured: true,
  });

type ZefixCompany = {
  name?: unknown;
  ehraid?: unknown;
  uid?: unknown;
  legalSeat?: unknown;
  status?: unknown;
  legalForm?: { name?: Record<string, unknown>; shortName?: Record<string, unknown> } | null;
  address?: { street?: unknown; houseNumber?: unknown; city?: unknown; swissZipCode?: unknown } | null;
};

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : typeof value === 'number' ? String(value) : null);

function toCompany(raw: ZefixCompany): RegisterCompany | undefined {
  const name = text(raw.name);
  const ehraid = Number(raw.ehraid);
  if (!name || !Number.isSafeInteger(ehraid)) return undefined;
  const uid = text(raw.uid);
  const form = raw.legalForm?.name ?? raw.legalForm?.shortName;
  return {
    name,
    ehraid,
    uid: uid ? formatSwissUid(uid) : null,
    legalSeat: text(raw.legalSeat),
    legalForm: form ? (text(form.en) ?? text(form.de) ?? text(form.fr) ?? text(form.it)) : null,
    status: text(raw.status),
  };
}

/** The Zefix client bound to the configured base URL and credentials. */
export class CompanyRegister {
  constructor(private readonly settings: Config['companyRegister']) {}

  get configured(): boolean {
    return this.settings !== undefined;
  }

  private async call(path: string, init: { method: 'GET' | 'POST'; body?: unknown }): Promise<unknown> {
    const settings = this.settings;
    if (!settings) throw registerNotConfigured();
    const headers: Record<string, string> = { accept: 'application/json' };
    if (settings.username) {
      headers.authorization = `Basic ${Buffer.from(`${settings.username}:${settings.password ?? ''}`).toString('base64')}`;
    }
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(`${settings.baseUrl}${path}`, {
        method: init.method,
        headers,
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw registerUnreachable((error as Error).name === 'TimeoutError' ? 'timeout' : 'network error');
    }
    // Zefix answers 404 when nothing matches.
    if (response.status === 404) return [];
    if (!response.ok) throw registerUnreachable(`HTTP ${response.status}`);
    try {
      return await response.json();
    } catch {
      throw registerUnreachable('invalid answer');
    }
  }

  /** Active companies whose name matches `name` (Zefix search semantics), at most 50. */
  async search(name: string): Promise<RegisterCompany[]> {
    const body = await this.call('/api/v1/company/search', { method: 'POST', body: { name, activeOnly: true } });
    const list = Array.isArray(body) ? body : [];
    return list
      .map((raw) => toCompany(raw as ZefixCompany))
      .filter((c): c is RegisterCompany => c !== undefined)
      .slice(0, 50);
  }

  /** One company by EHRA-ID with its address; undefined when the register has no such company. */
  async detail(ehraid: number): Promise<RegisterCompanyDetail | undefined> {
    const body = await this.call(`/api/v1/company/ehraid/${ehraid}`, { method: 'GET' });
    // The register answers a list (one company per EHRA-ID) or, in some versions, the object itself.
    const raw = (Array.isArray(body) ? body[0] : body) as ZefixCompany | undefined;
    if (!raw || typeof raw !== 'object') return undefined;
    const company = toCompany(raw);
    if (!company) return undefined;
    const a = raw.address;
    return {
      ...company,
      address: a
        ? { street: text(a.street), houseNumber: text(a.houseNumber), town: text(a.city), swissZipCode: text(a.swissZipCode) }
        : null,
    };
  }
}
