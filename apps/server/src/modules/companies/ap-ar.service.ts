/**
 * A company's open receivables and payables (spec §2.2 `/company/{uuid}/ap-ar`). Open items come
 * from the document modules above companies (invoices: status sent; bills: open payables) through
 * `ApArSource`s that modules/wiring/wiring.ts builds and app.ts hands to the company routes.
 */
import { Money, sumMoney, toFixedAmount } from '@bilan/domain';
import type { Tx } from '../../db/database.js';

/** One open document of the company. Amounts are decimal strings in the instance currency, 2 decimals. */
export interface OpenItem {
  kind: 'receivable' | 'payable';
  /** 'invoice' or 'bill'. */
  document: string;
  uuid: string | null;
  id: number | null;
  reference: string;
  date: string | null;
  dueDate: string | null;
  amount: string;
  currency: string;
  /** App path of the document, e.g. /invoice/{uuid}/detail. */
  link: string | null;
}

/** An open amount of one company, for the company list. */
export interface OpenAmount {
  companyUuid: string;
  kind: OpenItem['kind'];
  /** Decimal string, instance currency; the same amounts `query` gives per item. */
  amount: string;
}

export interface ApArSource {
  query: (tx: Tx, instanceId: string, companyUuid: string) => Promise<OpenItem[]>;
  /**
   * The open amounts of many companies in one go (the company list's columns); without it the
   * list calls `query` once per company.
   */
  amounts?: (tx: Tx, instanceId: string, companyUuids: readonly string[]) => Promise<OpenAmount[]>;
}

/** Open items of the company, receivables then payables, by date; totals per side and net (receivable − payable). */
export async function companyApAr(tx: Tx, instanceId: string, companyUuid: string, sources: readonly ApArSource[]) {
  const items: OpenItem[] = [];
  for (const source of sources) {
    items.push(...(await source.query(tx, instanceId, companyUuid)));
  }
  const byDate = (a: OpenItem, b: OpenItem) => (a.date ?? '').localeCompare(b.date ?? '');
  const receivables = items.filter((i) => i.kind === 'receivable').sort(byDate);
  const payables = items.filter((i) => i.kind === 'payable').sort(byDate);
  const receivable = sumMoney(receivables.map((i) => i.amount));
  const payable = sumMoney(payables.map((i) => i.amount));
  return {
    receivables,
    payables,
    totals: {
      receivable: toFixedAmount(receivable),
      payable: toFixedAmount(payable),
      net: toFixedAmount(new Money(receivable).minus(payable)),
    },
  };
}

/** Open receivable and payable of a company, decimal strings in the instance currency. */
export interface OpenTotals {
  receivable: string;
  payable: string;
}

/**
 * Open receivable and payable per company for the company list (Bexio-style columns), summed
 * exactly as `companyApAr` sums them; companies without open items get '0.00'.
 */
export async function companiesOpenTotals(
  tx: Tx,
  instanceId: string,
  companyUuids: readonly string[],
  sources: readonly ApArSource[],
): Promise<Map<string, OpenTotals>> {
  const sums = new Map(companyUuids.map((uuid) => [uuid, { receivable: new Money(0), payable: new Money(0) }]));
  if (companyUuids.length === 0) return new Map();
  for (const source of sources) {
    let amounts: OpenAmount[] = [];
    if (source.amounts) amounts = await source.amounts(tx, instanceId, companyUuids);
    else {
      // One transaction is one connection: the per-company queries run one after the other anyway.
      for (const companyUuid of companyUuids) {
        for (const item of await source.query(tx, instanceId, companyUuid)) amounts.push({ companyUuid, kind: item.kind, amount: item.amount });
      }
    }
    for (const { companyUuid, kind, amount } of amounts) {
      const sum = sums.get(companyUuid);
      if (sum) sum[kind] = sum[kind].plus(amount);
    }
  }
  return new Map([...sums].map(([uuid, sum]) => [uuid, { receivable: toFixedAmount(sum.receivable), payable: toFixedAmount(sum.payable) }]));
}
