import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PaymentProfileType } from '../enums.js';
import { getAddress } from 'viem/utils';
import {
  explorerLink, explorerUnavailableReason, isValidEvmAddress, isValidLedgerAddress, isValidSolanaAddress, toChecksumAddress,
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

  it('accepts each test vector in all-lowercase and all-uppercase hex: no checksum, as EIP-55 allows', () => {
    for (const address of eip55Vectors) {
      expect(isValidEvmAddress(`0x${address.slice(2).toLowerCase()}`)).toBe(true);
      expect(isValidEvmAddress(`0x${address.slice(2).toUpperCase()}`)).toBe(true);
    }
  });

  // Property tests against viem's own checksum (getAddress), the library the validator relies on.
  const address20 = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => `0x${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`);

  it('property: every random 20-byte address checksummed by the library passes, in all three forms', () => {
    fc.assert(
      fc.property(address20, (hex) => {
        const checksummed = getAddress(hex);
        expect(toChecksumAddress(hex)).toBe(checksummed);
        expect(isValidEvmAddress(checksummed)).toBe(true);
        expect(isValidEvmAddress(hex.toLowerCase())).toBe(true);
        expect(isValidEvmAddress(`0x${hex.slice(2).toUpperCase()}`)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('property: flipping the case of any one letter of a checksummed address makes it fail', () => {
    const withMixedCase = address20.map((hex) => getAddress(hex)).filter((a) => {
      const hex = a.slice(2);
      // Two letters at least, so that one flip cannot turn it into a checksum-free single-case form.
      return hex !== hex.toLowerCase() && hex !== hex.toUpperCase() && (hex.match(/[a-fA-F]/g) ?? []).length >= 2;
    });
    fc.assert(
      fc.property(withMixedCase, fc.nat(), (checksummed, pick) => {
        const letters = [...checksummed].map((c, i) => [c, i] as const).filter(([c, i]) => i >= 2 && /[a-fA-F]/.test(c));
        const [c, i] = letters[pick % letters.length]!;
        const flipped = checksummed.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + checksummed.slice(i + 1);
        const hex = flipped.slice(2);
        fc.pre(hex !== hex.toLowerCase() && hex !== hex.toUpperCase());
        expect(isValidEvmAddress(flipped)).toBe(false);
      }),
      { numRuns: 500 },
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

describe('isValidLedgerAddress and explorer links', () => {
  const evm = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
  const solana = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';

  it('dispatches by kind', () => {
    expect(isValidLedgerAddress(PaymentProfileType.Ethereum, eip55Vectors[0])).toBe(true);
    expect(isValidLedgerAddress(PaymentProfileType.Goerli, eip55Vectors[0])).toBe(true);
    expect(isValidLedgerAddress(PaymentProfileType.Solana, eip55Vectors[0])).toBe(false);
    expect(isValidLedgerAddress(PaymentProfileType.Iban, 'CH9300762011623852957')).toBe(false);
  });

  it("links each live chain to its explorer's address page", () => {
    expect(explorerLink(PaymentProfileType.Ethereum, evm)).toBe(`https://etherscan.io/address/${evm}`);
    expect(explorerLink(PaymentProfileType.Sepolia, evm)).toBe(`https://sepolia.etherscan.io/address/${evm}`);
    expect(explorerLink(PaymentProfileType.Arbitrum, evm)).toBe(`https://arbiscan.io/address/${evm}`);
    expect(explorerLink(PaymentProfileType.Polygon, evm)).toBe(`https://polygonscan.com/address/${evm}`);
    expect(explorerLink(PaymentProfileType.Solana, solana)).toBe(`https://explorer.solana.com/address/${solana}`);
    for (const type of [PaymentProfileType.Ethereum, PaymentProfileType.Sepolia, PaymentProfileType.Arbitrum, PaymentProfileType.Polygon, PaymentProfileType.Solana]) {
      expect(explorerUnavailableReason(type)).toBeUndefined();
    }
  });

  it('gives Goerli (shut down) no link but a reason, and IBAN kinds neither', () => {
    expect(explorerLink(PaymentProfileType.Goerli, evm)).toBeUndefined();
    expect(explorerUnavailableReason(PaymentProfileType.Goerli)).toBe('Goerli testnet is shut down');
    expect(explorerLink(PaymentProfileType.Iban, 'CH9300762011623852957')).toBeUndefined();
    expect(explorerUnavailableReason(PaymentProfileType.Iban)).toBeUndefined();
  });
});
