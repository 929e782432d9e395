import { describe, expect, it } from 'vitest';
import { matchPages, PAGES, parseCommand, voiceIntent } from './commands';

describe('parseCommand (spec §2.10 quick jumps)', () => {
  it.each([
    ['INV12', { kind: 'invoice', number: 12 }],
    ['inv 7', { kind: 'invoice', number: 7 }],
    ['TG3', { kind: 'transactionGroup', id: 3 }],
    ['en 42', { kind: 'entry', id: 42 }],
    ['CO Mus', { kind: 'company', text: 'Mus' }],
    ['co   Müller AG', { kind: 'company', text: 'Müller AG' }],
    // Fewer than 3 letters or digits: not a company search, words to find among the pages.
    ['CO ab', { kind: 'pages', text: 'CO ab' }],
    ['INV', { kind: 'pages', text: 'INV' }],
    ['INVX1', { kind: 'pages', text: 'INVX1' }],
    ['open bills', { kind: 'pages', text: 'open bills' }],
  ])('%s', (input, expected) => {
    expect(parseCommand(input)).toEqual(expected);
  });
});

describe('matchPages', () => {
  it('lists the whole page list for an empty input, in the spec order with its targets', () => {
    const all = matchPages('');
    expect(all).toHaveLength(PAGES.length);
    expect(all.slice(0, 9).map((p) => [p.label, p.href])).toEqual([
      ['Home', '/'],
      ['Company List', '/company'],
      ['Company Create', '/company/add'],
      ['List of Invoices', '/invoice'],
      ['Invoice Create', '/invoice/add'],
      ['Open Invoice', '/invoice?filterStatus=sent'],
      ['Bill', '/bill'],
      ['Bill Create', '/bill/add'],
      ['Open Bills', '/bill?filterStatus=true'],
    ]);
  });

  it('keeps the pages whose label or keywords contain every typed word, case ignored', () => {
    expect(matchPages('open').map((p) => p.label)).toEqual(['Open Invoice', 'Open Bills']);
    expect(matchPages('TRIAL bal').map((p) => p.label)).toEqual(['trial balance']);
    expect(matchPages('mwst').map((p) => p.label)).toEqual(['VAT Return']);
    expect(matchPages('nothing like this')).toEqual([]);
  });
});

describe('voiceIntent (spec §2.10 voice, en-US)', () => {
  it('jumps by number, spoken as digits or words', () => {
    expect(voiceIntent('invoice 12')).toEqual({ kind: 'go', command: { kind: 'invoice', number: 12 } });
    expect(voiceIntent('show me entry five')).toEqual({ kind: 'go', command: { kind: 'entry', id: 5 } });
    expect(voiceIntent('Transaction 3')).toEqual({ kind: 'go', command: { kind: 'transactionGroup', id: 3 } });
  });

  it('closes on "close", and otherwise takes the page sharing the most words', () => {
    expect(voiceIntent('close')).toEqual({ kind: 'close' });
    expect(voiceIntent('please close the palette')).toEqual({ kind: 'close' });
    expect(voiceIntent('go to the open bills')).toMatchObject({ kind: 'page', page: { label: 'Open Bills' } });
    expect(voiceIntent('trial balance')).toMatchObject({ kind: 'page', page: { href: '/accounting/trial-balance' } });
    expect(voiceIntent('debtors please')).toMatchObject({ kind: 'page', page: { label: 'Debtors' } });
    expect(voiceIntent('xyzzy')).toEqual({ kind: 'unknown' });
  });
});
