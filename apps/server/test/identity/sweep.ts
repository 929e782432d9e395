/**
 * The bad-input sweep of identity/security.test.ts (issue #3 §5): bodies generated from the
 * OpenAPI document (itself generated from the routes' zod schemas), filled with working fixtures
 * of the instance (real ledger accounts, companies, invoices, bills…) so that valid requests reach
 * SQL; then each leaf of those valid bodies — array items included — broken in turn, and every text
 * leaf carrying an SQL-injection probe.
 */
import fc from 'fast-check';
import type { TestServer, Workplace } from '../helpers.js';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  minLength?: number;
  maxLength?: number;
  nullable?: boolean;
}

export const SQLI = [
  "' OR '1'='1",
  "'; DROP TABLE app_user; --",
  "1'; SELECT pg_sleep(5); --",
  '$$; DROP TABLE instance; $$',
  "x' UNION SELECT value FROM server_secret --",
];

/** Broken values put in place of a leaf: wrong types, boundaries, oversized and hostile text. */
export const BROKEN: unknown[] = [null, -1, 0, 1.5, 2 ** 53, 'x'.repeat(5000), '', ' ', {}, [], true, 'not-a-uuid', '2026-02-30', 'a\u0000b', '💥'];

/** Ids of the sweeping instance's fixtures; `spare*` ones are for the calls that delete or archive. */
export interface Fixtures {
  instanceId: string;
  instanceName: string;
  userId: string;
  instance2: string;
  accounts: number[];
  /** Account numbers of `accounts` (CSV imports name accounts by number). */
  accountNumbers: string[];
  bank: number;
  expense: number;
  spareAccount: number;
  company: string;
  spareCompany: string;
  address: number;
  spareAddress: number;
  ownProfile: number;
  profile: number;
  spareProfile: number;
  spareProfile2: number;
  invoice: { uuid: string; id: number };
  spareInvoice: string;
  /** An invoice for the share calls (a new share link revokes the earlier ones). */
  shareInvoice: string;
  item: number;
  spareItem: number;
  shareToken: string;
  entry: number;
  spareEntry: number;
  mergeEntry: number;
  /** A line of an entry no other call replaces. */
  line: number;
  payable: { uuid: string; id: number };
  sparePayable: string;
  groupPayable: string;
  /** An approved bill in no group, for grouping. */
  freePayable: string;
  /** Another approved bill in no group, paid outside a group (/payable/pay). */
  payBill: string;
  group: number;
  spareGroup: number;
  /** A sent invoice to pay (/invoice/payment/insert) and a payment of another to reverse (issue 14 §3). */
  payInvoice: string;
  invoicePayment: string;
  /** A sent invoice to credit in full (/invoice/credit-note/insert) and a credit note of another (issue 15 §2). */
  creditInvoice: string;
  creditNote: string;
  /** A part payment of a bill to reverse, and a group to pay (/transaction-group/pay). */
  payablePayment: string;
  payGroup: number;
  file: string;
  spareFile: string;
  mail: number;
  property: number;
  spareProperty: number;
  member: string;
  spareMember: string;
  invitation: number;
  /** Contact people of `company` (issue 15 §1): the invoice e-mail goes to `contact`. */
  contact: number;
  /** A support request of the sweeper (answered, closed, followed up by the sweep). */
  supportRequest: string;
  spareContact: number;
  /** Quotes (issue 15 §4): a draft to read and edit, a draft to send, an accepted one to invoice, a spare draft to delete. */
  quote: string;
  statusQuote: string;
  acceptedQuote: string;
  spareQuote: string;
  /** Recurring invoice templates (issue 15 §4). */
  recurring: string;
  spareRecurring: string;
  /** Dunning (issue 15 §3): an overdue sent invoice reminded at level 1, and that reminder. */
  dunInvoice: string;
  reminder: string;
}

/** Creates the fixtures through the real API (and reads their ids back as owner). Throws on any refusal. */
export async function createFixtures(server: TestServer, owner: Workplace, instance2: string): Promise<Fixtures> {
  const api = owner.api;
  const ok = async (path: string, body: unknown) => {
    const response = await api.post(path, body);
    if (response.status !== 200) throw new Error(`fixture ${path}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body;
  };
  const read = <R>(sql: string, params: unknown[] = []) => server.db.asOwner((tx) => tx.query<R & Record<string, unknown>>(sql, [owner.instanceId, ...params]));
  const accountId = async (where: string) => (await read<{ id: number }>(`SELECT id FROM ledger_account WHERE instance_id = $1 AND ${where} ORDER BY number LIMIT 1`))[0]!.id;
  const bank = await accountId(`number = '1020'`);
  const revenue = await accountId(`number LIKE '3%'`);
  const [revenueNumber] = await read<{ number: string }>('SELECT number FROM ledger_account WHERE instance_id = $1 AND id = $2', [revenue]);
  const expense = await accountId(`number LIKE '6%'`);
  await ok('/api/accounting/account/insert', { data: { number: '9990', name: 'Sweep spare', currency: 'CHF' } });
  const spareAccount = await accountId(`number = '9990'`);

  const address = { street: 'Musterstrasse', houseNumber: '1', zip: '8000', city: 'Zürich', country: { id: 1 } };
  await ok('/api/company/insert', { data: { name: 'Sweep Kunde AG' } });
  await ok('/api/company/insert', { data: { name: 'Sweep Spare GmbH' } });
  const companies = await read<{ uuid: string; name: string }>(`SELECT uuid, name FROM company WHERE instance_id = $1 AND name LIKE 'Sweep %'`);
  const company = companies.find((c) => c.name === 'Sweep Kunde AG')!.uuid;
  const spareCompany = companies.find((c) => c.name === 'Sweep Spare GmbH')!.uuid;
  await ok('/api/address/insert', { data: { ...address, company: { uuid: company } } });
  await ok('/api/address/insert', { data: { ...address, street: 'Sparestrasse', company: { uuid: company } } });
  const addresses = await read<{ id: number }>('SELECT id FROM address WHERE instance_id = $1 AND company_uuid = $2 ORDER BY id', [company]);
  for (const iban of ['CH5800791123000889012', 'CH9300762011623852957', 'CH4431999123000889012']) {
    await ok('/api/payment-profile/insert', { data: { account: { id: bank }, type: iban.startsWith('CH44') ? 2 : 1, iban, company: { uuid: company } } });
  }
  const profiles = await read<{ id: number }>('SELECT id FROM payment_profile WHERE instance_id = $1 AND company_uuid = $2 ORDER BY id', [company]);
  const [own] = await read<{ id: number }>('SELECT id FROM payment_profile WHERE instance_id = $1 AND company_uuid = $2 ORDER BY id', [owner.companyUuid]);

  const invoiceBody = { data: { company: { uuid: company }, address: { id: addresses[0]!.id }, paymentProfile: { id: own!.id }, dateInvoice: '2026-01-15', items: [{ name: 'Beratung', amount: '1', price: '100.00' }, { name: 'Spesen', amount: '2', price: '5.50' }] } };
  for (let i = 0; i < 3; i += 1) await ok('/api/invoice/insert', invoiceBody);
  const invoices = await read<{ uuid: string; id: number }>('SELECT uuid, id FROM invoice WHERE instance_id = $1 ORDER BY id');
  // Items of the share invoice: invoice/update replaces the main invoice's items.
  const items = await read<{ id: number }>('SELECT id FROM invoice_item WHERE instance_id = $1 AND invoice_uuid = $2 ORDER BY id', [invoices[2]!.uuid]);
  const share = await ok('/api/invoice/share', { uuid: invoices[0]!.uuid });
  const [instance] = await read<{ name: string }>('SELECT name FROM instance WHERE id = $1');

  const entryBody = { data: { dateLedger: '2026-01-15', description: 'Sweep entry', entryAccounts: [{ account: { id: bank }, amount: '10.00', direction: 1 }, { account: { id: revenue }, amount: '10.00', direction: -1 }] } };
  for (let i = 0; i < 4; i += 1) await ok('/api/accounting/entry/insert', entryBody);
  const entries = await read<{ id: number }>(`SELECT id FROM journal_entry WHERE instance_id = $1 AND description = 'Sweep entry' ORDER BY id`);
  const [line] = await read<{ id: number }>('SELECT id FROM journal_line WHERE instance_id = $1 AND entry_id = $2 ORDER BY id', [entries[3]!.id]);

  for (let i = 0; i < 6; i += 1) await ok('/api/payable/insert', { data: { company: { uuid: company }, companyFinance: { id: profiles[0]!.id }, date: '2026-01-15', amount: '10.00' } });
  const payables = await read<{ uuid: string; id: number }>('SELECT uuid, id FROM payable WHERE instance_id = $1 ORDER BY id');
  // Only approved bills can be grouped for payment.
  for (const bill of payables.slice(2)) await ok('/api/payable/update', { uuid: bill.uuid, data: { status: 2, expenseAccount: { id: expense } } });
  await ok('/api/transaction-group/insert', { payable: { uuids: [payables[2]!.uuid] } });
  await ok('/api/transaction-group/insert', { payable: { uuids: [payables[3]!.uuid] } });
  const groups = await read<{ id: number }>('SELECT id FROM transaction_group WHERE instance_id = $1 ORDER BY id');
  // Payments (issue 14 §3): a sent invoice to pay, another with a part payment to reverse; a bill
  // with a part payment to reverse; a group to pay.
  const sentInvoices: string[] = [];
  for (let i = 0; i < 5; i += 1) {
    const created = await ok('/api/invoice/insert', invoiceBody);
    await ok('/api/invoice/status/change', { uuid: created.uuid, status: 2 });
    sentInvoices.push(created.uuid);
  }
  // Dated 2026-01-15, due 30 days later: overdue, so level 1 of the dunning run is due.
  const reminded = await ok('/api/dunning/run/confirm', { items: [{ invoiceUuid: sentInvoices[4], level: 1, delivery: 'print' }] });
  const quoteBody = { data: { ...invoiceBody.data, dateInvoice: undefined, dateQuote: '2026-01-15' } };
  const quotes: string[] = [];
  for (let i = 0; i < 4; i += 1) quotes.push((await ok('/api/quote/insert', quoteBody)).uuid);
  await ok('/api/quote/status/change', { uuid: quotes[2], status: 'sent' });
  await ok('/api/quote/status/change', { uuid: quotes[2], status: 'accepted' });
  const recurringBody = { data: { ...invoiceBody.data, dateInvoice: undefined, interval: 'monthly', startDate: '2027-01-01', sendMode: 'draft' } };
  const recurring = [(await ok('/api/recurring/insert', recurringBody)).uuid, (await ok('/api/recurring/insert', recurringBody)).uuid];
  const creditedDetail = await ok('/api/invoice/detail', { id: sentInvoices[3] });
  const creditNote = await ok('/api/invoice/credit-note/insert', { uuid: sentInvoices[3], lines: [{ itemId: creditedDetail.items[0].id, amount: '1.00' }], token: 'sweep-fixture' });
  const partlyPaid = await ok('/api/invoice/payment/insert', { uuid: sentInvoices[1], amount: '10.00', date: '2026-01-20' });
  const extraBills: { uuid: string }[] = [];
  for (let i = 0; i < 2; i += 1) {
    const created = await ok('/api/payable/insert', { data: { company: { uuid: company }, companyFinance: { id: profiles[0]!.id }, date: '2026-01-15', amount: '10.00' } });
    await ok('/api/payable/update', { uuid: created.uuid, data: { status: 2, expenseAccount: { id: expense } } });
    extraBills.push(created);
  }
  const payGroup = await ok('/api/transaction-group/insert', { payable: { uuids: [extraBills[0]!.uuid] } });
  const partlyPaidBill = await ok('/api/payable/pay', { uuid: extraBills[1]!.uuid, amount: '4.00', date: '2026-01-20' });

  for (const name of ['sweep.pdf', 'spare.pdf']) {
    const upload = await api.request('POST', `/api/file/upload?name=${name}`, '%PDF-1.4\n%%EOF\n', { 'content-type': 'application/pdf' });
    if (upload.status !== 200) throw new Error(`fixture upload: ${upload.status} ${JSON.stringify(upload.body)}`);
  }
  const files = await read<{ uuid: string }>('SELECT uuid FROM inbox_file WHERE instance_id = $1 ORDER BY created_at, name DESC');
  await ok('/api/mail/insert', { data: { from: 'billing@lieferant.ch', subject: 'Rechnung' } });
  const [mail] = await read<{ id: number }>('SELECT id FROM mail WHERE instance_id = $1 ORDER BY id');
  await ok('/api/additional-property/insert', { data: { company: { uuid: company }, type: 1, name: 'Note', value: 'Sweep' } });
  await ok('/api/additional-property/insert', { data: { company: { uuid: company }, type: 1, name: 'Spare', value: 'Sweep' } });
  const properties = await read<{ id: number }>('SELECT id FROM additional_property WHERE instance_id = $1 ORDER BY id');
  const contact = await ok('/api/company/contact/insert', { company: { uuid: company }, name: 'Sweep Kontakt', email: 'kontakt@sweep.ch' });
  const support = await ok('/napi/support/send', { subject: 'Sweep support', message: 'Please help', file: { name: 'screen.png', contentType: 'image/png', content: 'iVBORw0KGgo=' } });
  const spareContact = await ok('/api/company/contact/insert', { company: { uuid: company }, name: 'Sweep Spare', email: 'spare@sweep.ch' });

  const members: string[] = [];
  for (const email of ['sweep.member@example.ch', 'sweep.spare@example.ch']) {
    members.push(
      await server.db.withAuth(async (tx) => {
        const [user] = await tx.query<{ id: string }>(`INSERT INTO app_user (email) VALUES ($1) RETURNING id`, [email]);
        await tx.query(`INSERT INTO instance_member (instance_id, user_id, role) VALUES ($1, $2, 'viewer')`, [owner.instanceId, user!.id]);
        return user!.id;
      }),
    );
  }
  await ok('/api/instance/member/invite', { email: 'sweep.invited@example.ch', role: 'viewer' });
  // The VAT return: settings and one filed return (id 1) for the calls that take a filed return.
  await ok('/api/accounting/vat/settings/update', { data: { vatNumber: 'CHE-116.281.710 MWST', registrationDate: '2020-01-01', method: 'effective', basis: 'agreed' } });
  await ok('/api/accounting/vat/return/file', { dateFrom: '2024-01-01', dateTo: '2024-03-31' });
  const [invitation] = await read<{ id: number }>('SELECT id FROM instance_invitation WHERE instance_id = $1 ORDER BY id');

  return {
    instanceId: owner.instanceId,
    instanceName: instance!.name,
    userId: owner.userId,
    instance2,
    accounts: [bank, revenue],
    accountNumbers: ['1020', revenueNumber!.number],
    bank,
    expense,
    spareAccount,
    company,
    spareCompany,
    address: addresses[0]!.id,
    spareAddress: addresses[1]!.id,
    ownProfile: own!.id,
    profile: profiles[0]!.id,
    spareProfile: profiles[1]!.id,
    spareProfile2: profiles[2]!.id,
    invoice: invoices[0]!,
    spareInvoice: invoices[1]!.uuid,
    shareInvoice: invoices[2]!.uuid,
    item: items[0]!.id,
    spareItem: items[1]!.id,
    shareToken: share.token,
    entry: entries[0]!.id,
    spareEntry: entries[1]!.id,
    mergeEntry: entries[2]!.id,
    line: line!.id,
    payable: payables[0]!,
    sparePayable: payables[1]!.uuid,
    groupPayable: payables[2]!.uuid,
    freePayable: payables[4]!.uuid,
    payBill: payables[5]!.uuid,
    group: groups[0]!.id,
    spareGroup: groups[1]!.id,
    payInvoice: sentInvoices[0]!,
    invoicePayment: partlyPaid.payments[0].uuid,
    creditInvoice: sentInvoices[2]!,
    creditNote: creditNote.uuid,
    payablePayment: partlyPaidBill.payments[0].uuid,
    payGroup: payGroup.id,
    file: files[0]!.uuid,
    spareFile: files[1]!.uuid,
    mail: mail!.id,
    property: properties[0]!.id,
    spareProperty: properties[1]!.id,
    member: members[0]!,
    spareMember: members[1]!,
    invitation: invitation!.id,
    contact: contact.id as number,
    spareContact: spareContact.id as number,
    supportRequest: support.uuid as string,
    quote: quotes[0]!,
    statusQuote: quotes[1]!,
    acceptedQuote: quotes[2]!,
    spareQuote: quotes[3]!,
    recurring: recurring[0]!,
    spareRecurring: recurring[1]!,
    dunInvoice: sentInvoices[4]!,
    reminder: reminded.data[0].uuid as string,
  };
}

/** True for calls that delete, archive, merge or end something: they get the spare fixtures. */
export const isDestructive = (route: string) => /delete|remove|archive|merge|revoke/.test(route);

type Path = (string | number)[];

/** Stands for the caller's own session id; the sweep puts the real one in before sending. */
export const SESSION_PLACEHOLDER = '5e55101d-0000-4000-8000-000000000000';

/**
 * The fixture a field refers to, from the route and the field's place in the body; undefined when
 * the field is not a reference.
 */
export function reference(route: string, path: Path, f: Fixtures): unknown {
  const keys = path.filter((p): p is string => typeof p === 'string');
  const key = keys[keys.length - 1] ?? '';
  const parent = keys[keys.length - 2] ?? '';
  const index = path.find((p): p is number => typeof p === 'number') ?? 0;
  const spare = isDestructive(route);
  const topLevel = keys.length === 1;
  // An invoice line (of an invoice, a quote, a recurring template) books to a revenue account (class 3).
  if (key === 'id' && parent === 'account' && /\/(invoice|quote|recurring)/.test(route)) return f.accounts[1];
  if (key === 'id' && (parent === 'account' || parent === 'counterAccount')) return parent === 'counterAccount' ? f.accounts[1] : f.accounts[index % 2];
  // The ledger account bank charges are booked to (banking settings).
  if (key === 'id' && parent === 'chargesAccount') return f.expense;
  if (key === 'accountId') return f.bank;
  if (key === 'uuid' && parent === 'company') return f.company;
  if (key === 'companyUuid') return f.company;
  if (key === 'id' && parent === 'address') return f.address;
  if (key === 'addressId') return f.address;
  if (key === 'id' && parent === 'paymentProfile') return f.ownProfile;
  if (key === 'paymentProfileId') return f.ownProfile;
  if (key === 'id' && parent === 'companyFinance') return f.profile;
  if (key === 'id' && parent === 'expenseAccount') return f.expense;
  if (key === 'uuid' && parent === 'invoice') return f.invoice.uuid;
  if (key === 'id' && parent === 'payable') return f.payable.id;
  if (key === 'uuids' || (parent === 'uuids' && typeof path[path.length - 1] === 'number')) return f.freePayable;
  if (key === 'id' && parent === 'transactionGroup') return f.group;
  if (key === 'entry1') return f.entry;
  if (key === 'entry2') return f.mergeEntry;
  if (key === 'name' && route.includes('/instance/exists')) return f.instanceName;
  if (key === 'data' && route.includes('/invoice/import')) {
    return [{ invoice: `SWEEP-${unique++}`, companyUuid: f.company, dateInvoice: '2026-01-15', name: 'Sweep line', amount: '1', price: '10.00' }];
  }
  if (key === 'data' && route.includes('/company/import')) return `name,street,zip,city,country\nSweep Import ${unique++},Bahnhofstrasse 1,3011,Bern,CH\n`;
  if (key === 'status' && route.includes('/invoice/status/change')) return 2;
  // One confirmation token for the sweep's repeated valid calls: the first pays, the others answer the same.
  if (key === 'token' && /\/(invoice\/payment\/insert|payable\/pay|transaction-group\/pay)$/.test(route)) return 'sweep-pay-token';
  // The same for credit notes: the first valid call credits the invoice in full, the others answer that credit note.
  if (key === 'token' && route.endsWith('/invoice/credit-note/insert')) return 'sweep-credit-token';
  if (key === 'status' && route.includes('/transaction-group/status/change')) return 4;
  if (key === 'id' && route.includes('/sessions/revoke')) return SESSION_PLACEHOLDER;
  if (key === 'files' || parent === 'files') return f.file;
  if (key === 'contactIds') return f.contact;
  if (key === 'instance' && route.includes('prelogin')) return f.instanceId;
  // Support: a request to answer, an e-mail and a base64 screenshot for the sign-in form.
  if (route.includes('/support/send')) {
    if (key === 'email') return 'sweep.support@example.ch';
    if (key === 'instance') return f.instanceName;
    if (key === 'content' && parent === 'file') return 'iVBORw0KGgo=';
    if (key === 'contentType' && parent === 'file') return 'image/png';
    if (key === 'name' && parent === 'file') return 'screenshot.png';
  }
  if (key === 'uuid' && route.includes('/support/')) return f.supportRequest;
  // Quotes: a draft sent once (the repeat is 409 already_done); dunning: the overdue invoice's level 1, a fee.
  if (key === 'status' && route.includes('/quote/status/change')) return 'sent';
  if (route.includes('/dunning/')) {
    if (key === 'invoiceUuid') return f.dunInvoice;
    if (key === 'level') return 1;
    if (key === 'fee') return '20.00';
    if (key === 'interestRate') return '0.05';
  }
  // VAT codes: a seeded code to change, an unused one to delete, a new code on a tax account that exists.
  if (route.includes('/vat-code/')) {
    if (key === 'code' && topLevel) return spare ? 'O910' : 'M81';
    if (key === 'code') return `SW${unique++}`;
    if (key === 'kind') return 'sales';
    if (key === 'rateType') return 'standard';
    if (key === 'accountNumber') return '2200';
  }
  // Salary: a mapping on accounts of the chart; a payroll file of two balanced rows, new each time
  // (the same file again is refused as imported already).
  if (route.includes('/salary/wage-type/')) {
    if (key === 'code') return `SW${unique++}`;
    if (key === 'debitAccount') return f.accountNumbers[0];
    if (key === 'creditAccount') return f.accountNumbers[1];
  }
  if (route.includes('/salary/import') && key === 'content') {
    const [bank, revenue] = f.accountNumbers;
    return `period,employee,debit,credit,amount\n2026-11,Sweep Employee ${unique++},${bank},${revenue},10.00\n`;
  }
  if (!topLevel || !['id', 'uuid'].includes(key)) return undefined;
  // Top-level ids: what the route is about.
  const by: [RegExp, unknown, unknown][] = [
    [/\/accounting\/entry\/account\/update$/, f.line, f.line],
    [/\/accounting\/account\//, f.bank, f.spareAccount],
    [/\/accounting\/entry\//, f.entry, f.spareEntry],
    [/\/invoice\/by-entry$/, f.entry, f.entry],
    [/\/invoice\/payment\/insert$/, f.payInvoice, f.payInvoice],
    [/\/invoice\/payment\/reverse$/, f.invoicePayment, f.invoicePayment],
    [/\/invoice\/credit-note\/(insert|list)$/, f.creditInvoice, f.creditInvoice],
    [/\/invoice\/credit-note\/pdf$/, f.creditNote, f.creditNote],
    [/\/payable\/payment\/reverse$/, f.payablePayment, f.payablePayment],
    [/\/transaction-group\/pay$/, f.payGroup, f.payGroup],
    [/\/quote\/status\/change$/, f.statusQuote, f.statusQuote],
    [/\/quote\/invoice$/, f.acceptedQuote, f.acceptedQuote],
    [/\/quote\//, f.quote, f.spareQuote],
    [/\/recurring\//, f.recurring, f.spareRecurring],
    [/\/dunning\/reminder\//, f.reminder, f.reminder],
    [/\/invoice\/item\//, f.item, f.spareItem],
    [/\/invoice\/share/, f.shareInvoice, f.shareInvoice],
    [/\/invoice\//, f.invoice.uuid, f.spareInvoice],
    [/\/payable\/detail$/, f.payable.id, f.payable.id],
    [/\/payable\/pay$/, f.payBill, f.payBill],
    [/\/payable\//, f.payable.uuid, f.sparePayable],
    [/\/transaction-group\//, f.group, f.spareGroup],
    [/\/api\/file\//, f.file, f.spareFile],
    [/\/mail\//, f.mail, f.mail],
    [/\/additional-property\//, f.property, f.spareProperty],
    [/\/company\/contact\//, f.contact, f.spareContact],
    [/\/company\//, f.company, f.spareCompany],
    [/\/address\//, f.address, f.spareAddress],
    [/\/payment-profile\/archive$/, f.spareProfile, f.spareProfile],
    [/\/payment-profile\//, f.profile, f.spareProfile2],
    [/\/member\/invitation\//, f.invitation, f.invitation],
    [/\/member\//, f.member, f.spareMember],
    [/\/admin\/user\//, f.member, f.member],
    [/\/instance\/change$/, f.instance2, f.instance2],
    [/\/webauthn\/prelogin$/, f.userId, f.userId],
  ];
  for (const [pattern, main, alternative] of by) if (pattern.test(route)) return spare ? alternative : main;
  return undefined;
}

let unique = 0;

/** A valid string for a named field with an optional pattern. */
function validString(route: string, key: string, schema: JsonSchema): string {
  unique += 1;
  const pattern = schema.pattern ?? '';
  if (schema.format === 'date-time') return '2026-01-15T10:00:00Z';
  // The VAT return: a quarter that has ended (the fixtures filed Q1 2024, the sweep files Q1 2025).
  if (route.includes('/vat/return/') && key === 'dateFrom') return '2025-01-01';
  if (route.includes('/vat/return/') && key === 'dateTo') return '2025-03-31';
  if (route.includes('/vat/') && key === 'registrationDate') return '2020-01-01';
  if (route.includes('/vat/') && key === 'vatNumber') return 'CHE-116.281.710 MWST';
  if (route.includes('/vat/') && key === 'ziffer') return '303';
  if (schema.format === 'date' || /date/i.test(key)) return '2026-01-15';
  if (schema.format === 'email' || key === 'email' || key === 'from') return `sweep${unique}@example.ch`;
  if (key === 'iban') return 'CH5800791123000889012';
  if (key === 'bic') return 'POFICHBEXXX';
  if (key === 'url') return '/profile';
  if (key === 'country' && pattern) return 'CH';
  if (key === 'vat' && /instance/.test(route)) return '8.1';
  if (/^(fxRate|exchangeRate)$/.test(key)) return '1';
  // Decimal strings: positive and plain (the patterns also allow a minus sign).
  if (pattern.startsWith('^-?\\d{1,18}')) {
    if (/discount/i.test(key)) return '0';
    if (key === 'vat') return '0.081';
    if (key === 'vatAmount') return '0.00';
    if (/^(fxRate|exchangeRate)$/.test(key)) return '1';
    return '10.00';
  }
  if (key === 'number' && pattern.includes('{4,10}')) return `7${String(unique).padStart(6, '0')}`;
  if (key === 'number' && pattern.includes('{1,3}')) return String(999 - (unique % 400));
  if (key === 'invoice') return `SW-${unique}`;
  if (pattern === '^\\d{6}$') return '123456';
  if (pattern) {
    try {
      const [sample] = fc.sample(fc.stringMatching(new RegExp(pattern)), { numRuns: 1, seed: unique });
      if (sample !== undefined) return sample.slice(0, schema.maxLength ?? 200);
    } catch {
      // A pattern fast-check cannot read: fall through to plain text.
    }
  }
  if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
  return `Sweep ${key || 'text'} ${unique}`.slice(0, schema.maxLength ?? 200);
}

/** Optional fields worth filling: references, and what makes a payment profile or a bill usable. */
// `resend` e-mails an invoice whatever its status; `subject` and `body` make an e-mail template;
// `debitAccount`/`creditAccount` make a salary wage type; `full` credits a whole invoice.
const USEFUL_OPTIONAL = new Set(['company', 'address', 'paymentProfile', 'companyFinance', 'account', 'iban', 'bic', 'items', 'filters', 'accountId', 'files', 'resend', 'subject', 'body', 'debitAccount', 'creditAccount', 'full']);

/**
 * An invoice item takes `name|label`, `amount|quantity`, `price|rate` (spec §3 and its working form):
 * each pair is optional in the schema and one of it required by a refinement JSON Schema does not show.
 */
function isInvoiceItemName(route: string, path: Path, name: string): boolean {
  const item = route.includes('/invoice/item/') ? path.length === 1 : path.includes('items') && /\/(invoice|quote|recurring)\//.test(route);
  return item && (name === 'name' || name === 'amount' || name === 'price');
}

/** A valid value of `schema` for the field at `path` of `route`'s body. */
export function validValue(route: string, schema: JsonSchema | undefined, f: Fixtures, path: Path = [], index = 0): unknown {
  if (!schema) return null;
  const ref = reference(route, path, f);
  // A whole valid value where the schema cannot say enough (the invoice import's rows are `unknown[]`).
  if (Array.isArray(ref)) return ref;
  const options = schema.anyOf ?? schema.oneOf;
  if (options?.length) {
    // Prefer a real alternative over the empty-string one ('' for "no discount").
    const option = options.find((o) => !(o.enum?.length === 1 && o.enum[0] === '')) ?? options[0];
    return validValue(route, option, f, path, index);
  }
  if (schema.allOf?.length) return validValue(route, schema.allOf[0], f, path, index);
  if (schema.const !== undefined) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (ref !== undefined && (type === 'integer' || type === 'number' || type === 'string')) return ref;
  if (schema.enum?.length) return schema.enum[index % schema.enum.length];
  const key = String([...path].reverse().find((p) => typeof p === 'string') ?? '');
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(schema.properties ?? {})) {
        if (!(schema.required ?? []).includes(name) && !USEFUL_OPTIONAL.has(name) && !isInvoiceItemName(route, path, name)) continue;
        out[name] = validValue(route, value, f, [...path, name], index);
      }
      return out;
    }
    case 'array': {
      const count = Math.max(1, Math.min(schema.minItems ?? 1, 5), key === 'entryAccounts' ? 2 : 1);
      return Array.from({ length: count }, (_, i) => validValue(route, schema.items, f, [...path, i], i));
    }
    case 'integer':
    case 'number':
      // The year-end closing needs a fiscal year that has ended (2025: no postings, nothing to move).
      if (key === 'year') return route.includes('/closing/') ? 2025 : 2026;
      if (key === 'page') return 1;
      if (key === 'pageSize') return 10;
      if (key === 'ledgerCode') return 1100 + (unique++ % 800);
      if (key === 'type' && route.includes('payment-profile')) return 1;
      return schema.minimum !== undefined && schema.minimum > 1 ? schema.minimum : 1;
    case 'boolean':
      return key === 'resend' || (key === 'full' && route.endsWith('/credit-note/insert'));
    case 'string':
      return validString(route, key, schema);
    default:
      return null;
  }
}

export interface Leaf {
  path: Path;
  value: unknown;
  schema: JsonSchema | undefined;
}

/** Every leaf (non-object, non-array value) of a valid body, descending into arrays, with its schema. */
export function leaves(value: unknown, schema: JsonSchema | undefined, path: Path = []): Leaf[] {
  const pick = (s: JsonSchema | undefined) => (s?.anyOf ?? s?.oneOf)?.[0] ?? s;
  const resolved = pick(schema);
  if (Array.isArray(value)) return value.flatMap((item, i) => leaves(item, pick(resolved?.items), [...path, i]));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => leaves(item, pick(resolved?.properties?.[key]), [...path, key]));
  }
  return path.length ? [{ path, value, schema: resolved }] : [];
}

export function withLeaf(base: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
  target[path[path.length - 1]!] = value;
  return copy;
}

/** True for a text leaf that takes free text (not an enum, an id or a pattern-bound code). */
export const isText = (leaf: Leaf) => typeof leaf.value === 'string' && !leaf.schema?.enum && !leaf.schema?.pattern && leaf.schema?.format !== 'uuid';

/**
 * Every table's row count and a hash of its rows, as owner (row-level security does not hide rows
 * from the owner role of the tests). audit_event and action_log are left out: recording a refused
 * attempt is what they are for.
 */
export async function tableChecksums(server: TestServer): Promise<Record<string, string>> {
  const tables = await server.db.asOwner((tx) =>
    tx.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename NOT IN ('audit_event', 'action_log') ORDER BY 1`),
  );
  const [row] = await server.db.asOwner((tx) =>
    tx.query<Record<string, string>>(
      `SELECT ${tables.map((t) => `(SELECT count(*) || ':' || coalesce(sum(hashtext(x::text)::bigint), 0) FROM "${t.name}" x) AS "${t.name}"`).join(', ')}`,
    ),
  );
  return row!;
}

/** The tables whose checksum differs. */
export const changedTables = (before: Record<string, string>, after: Record<string, string>) =>
  Object.keys({ ...before, ...after }).filter((table) => before[table] !== after[table]);
