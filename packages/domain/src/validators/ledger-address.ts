/**
 * Public-ledger addresses of payment profiles (spec §3 PaymentProfileType Ethereum … Solana, §5
 * "Public address"): EVM chains use EIP-55 mixed-case checksummed addresses, Solana base58-encoded
 * 32-byte ed25519 public keys. Explorer links per chain (spec §3 "Explorer link helpers").
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import bs58 from 'bs58';
import { PaymentProfileType } from '../enums.js';

const EVM_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/** EIP-55 checksummed form of a 20-byte hex address (any case in, mixed case out). */
export function toChecksumAddress(address: string): string {
  if (!EVM_PATTERN.test(address)) throw new RangeError(`"${address}" is not a 0x-prefixed 20-byte hex address`);
  const lower = address.slice(2).toLowerCase();
  // ASCII hex: one byte per character.
  const hash = keccak_256(Uint8Array.from(lower, (c) => c.charCodeAt(0)));
  let out = '0x';
  for (let i = 0; i < lower.length; i += 1) {
    // Nibble i of the keccak-256 hash of the lowercase hex decides the case of character i (EIP-55).
    const byte = hash[i >> 1]!;
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f;
    out += nibble >= 8 ? lower[i]!.toUpperCase() : lower[i];
  }
  return out;
}

/**
 * EVM address (Ethereum, Sepolia, Goerli, Arbitrum, Polygon): 0x + 40 hex digits; all-lowercase or
 * all-uppercase carry no checksum and are accepted (EIP-55 §"Implementation"), mixed case must
 * match the EIP-55 checksum exactly.
 */
export function isValidEvmAddress(value: unknown): boolean {
  if (typeof value !== 'string' || !EVM_PATTERN.test(value)) return false;
  const hex = value.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true;
  return toChecksumAddress(value) === value;
}

/** Solana address: base58 (Bitcoin alphabet) of exactly 32 bytes (an ed25519 public key). */
export function isValidSolanaAddress(value: unknown): boolean {
  if (typeof value !== 'string' || value.length < 32 || value.length > 44) return false;
  try {
    return bs58.decode(value).length === 32;
  } catch {
    return false;
  }
}

const evmTypes: readonly number[] = [
  PaymentProfileType.Ethereum,
  PaymentProfileType.Sepolia,
  PaymentProfileType.Goerli,
  PaymentProfileType.Arbitrum,
  PaymentProfileType.Polygon,
];

/** True for the EVM public-ledger kinds (EIP-55 addresses). */
export const isEvmPaymentProfileType = (type: number): boolean => evmTypes.includes(type);

/** True when `address` is a valid public address for the ledger kind `type` (false for other kinds). */
export function isValidLedgerAddress(type: number, address: unknown): boolean {
  if (isEvmPaymentProfileType(type)) return isValidEvmAddress(address);
  if (type === PaymentProfileType.Solana) return isValidSolanaAddress(address);
  return false;
}

const explorerBase: Readonly<Record<number, string>> = {
  [PaymentProfileType.Ethereum]: 'https://etherscan.io/address/',
  [PaymentProfileType.Sepolia]: 'https://sepolia.etherscan.io/address/',
  [PaymentProfileType.Goerli]: 'https://goerli.etherscan.io/address/',
  [PaymentProfileType.Arbitrum]: 'https://arbiscan.io/address/',
  [PaymentProfileType.Polygon]: 'https://polygonscan.com/address/',
  [PaymentProfileType.Solana]: 'https://explorer.solana.com/address/',
};

/** Block-explorer page of a public address for a ledger kind; undefined for IBAN kinds. */
export function explorerLink(type: number, address: string): string | undefined {
  const base = explorerBase[type];
  return base ? `${base}${encodeURIComponent(address)}` : undefined;
}
