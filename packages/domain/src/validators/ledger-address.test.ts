import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PaymentProfileType } from '../enums.js';
import {
  explorerLink, isValidEvmAddress, isValidLedgerAddress, isValidSolanaAddress, toChecksumAddress,
} from './ledger-address.js';

// EIP-55 test vectors (https://eips.ethereum.org/EIPS/eip-55 "Test Cases").
const eip55Vectors = [
  '0x52908400098527886E0F7030069857D2E4169EE7',
  '0x8617E340B3D01FA5F11F306F4090FD50E238070D',
  '0xde709f2102306220921060314715629080e2fb77',
  '0x27b1fdb04752bbc536007a920d24acb045561c26',
  '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
  '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
  '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
];

describe('EIP-55 addresses', () => {
  it('accepts the EIP-55 test vectors and reproduces their checksum', () => {
    for (const address of eip55Vectors) {
      expect(isValidEvmAddress(address)).toBe(true);
      expect(toChecksumAddress(address.toLowerCase()).toLowerCase()).toBe(address.toLowerCase());
    }
    expect(toChecksumAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed');
  });

  it('refuses a wrong checksum, wrong length and non-hex', () => {
    expect(isValidEvmAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toBe(false);
    expect(isValidEvmAddress('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA')).toBe(false);
    expect(isValidEvmAddress('0xZZAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
    expect(isValidEvmAddress('5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toBe(false);
    expect(isValidEvmAddress(42)).toBe(false);
  });

  it('the checksummed form of any address is valid, and flipping one letter case breaks it', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), (bytes) => {
        const hex = `0x${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
        const checksummed = toChecksumAddress(hex);
        expect(isValidEvmAddress(checksummed)).toBe(true);
        const letters = [...checksummed.slice(2)].map((c, i) => [c, i + 2] as const).filter(([c]) => /[a-fA-F]/.test(c));
        const mixed = checksummed.slice(2) !== checksummed.slice(2).toLowerCase() && checksummed.slice(2) !== checksummed.slice(2).toUpperCase();
        if (letters.length >= 2 && mixed) {
          const [c, i] = letters[0]!;
          const flipped = checksummed.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + checksummed.slice(i + 1);
          const flippedHex = flipped.slice(2);
          if (flippedHex !== flippedHex.toLowerCase() && flippedHex !== flippedHex.toUpperCase()) {
            expect(isValidEvmAddress(flipped)).toBe(false);
          }
        }
      }),
    );
  });
});

describe('Solana addresses', () => {
  it('accepts 32-byte base58 keys and refuses others', () => {
    expect(isValidSolanaAddress('11111111111111111111111111111111')).toBe(true); // system program
    expect(isValidSolanaAddress('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')).toBe(true);
    expect(isValidSolanaAddress('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5D0')).toBe(false); // 0 not base58
    expect(isValidSolanaAddress('3yZe7d')).toBe(false);
    expect(isValidSolanaAddress('0x52908400098527886E0F7030069857D2E4169EE7')).toBe(false);
  });
});

describe('isValidLedgerAddress and explorerLink', () => {
  it('dispatches by kind and links each chain to its explorer', () => {
    expect(isValidLedgerAddress(PaymentProfileType.Ethereum, eip55Vectors[0])).toBe(true);
    expect(isValidLedgerAddress(PaymentProfileType.Solana, eip55Vectors[0])).toBe(false);
    expect(isValidLedgerAddress(PaymentProfileType.Iban, 'CH9300762011623852957')).toBe(false);
    expect(explorerLink(PaymentProfileType.Ethereum, '0xab')).toBe('https://etherscan.io/address/0xab');
    expect(explorerLink(PaymentProfileType.Solana, 'abc')).toBe('https://explorer.solana.com/address/abc');
    expect(explorerLink(PaymentProfileType.Polygon, 'x')).toMatch(/^https:\/\/polygonscan\.com\//);
    expect(explorerLink(PaymentProfileType.Iban, 'x')).toBeUndefined();
  });
});
