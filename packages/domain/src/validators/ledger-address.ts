/**
 * Public-ledger addresses of payment profiles (spec §3 PaymentProfileType Ethereum … Solana, §5
 * "Public address"): EVM chains use EIP-55 mixed-case checksummed addresses, Solana base58-encoded
 * 32-byte ed25519 public keys. Explorer links per chain (spec §3 "Explorer link helpers").
 *
 * The EIP-55 checksum comes from viem (`viem/utils`, tree-shaken in the web bundle), the widely
 * used Ethereum library, rather than our own keccak code: a wrong checksum loses money for good.
 */
import bs58 from 'bs58';
import { getAddress, isAddress } from 'viem/utils';
import { PaymentProfileType } from '../enums.js';

const EVM_PATTERN = /^0x[0-9a-fA-F]{40}$/;

/** EIP-55 checksummed form of a 20-byte hex address (any case in, mixed case out); RangeError otherwise. */
export function toChecksumAddress(address: string): string {
  if (!EVM_PATTERN.test(address)) throw new RangeError(`"${address}" is not a 0x-prefixed 20-byte hex address`);
  return getAddress(address);
}

/**
 * EVM address (Ethereum, Sepolia, Goerli, Arbitrum, Polygon): 0x + 40 hex digits. All-lowercase
 * and all-uppercase hex carry no checksum and are accepted (EIP-55 "Implementation"); mixed case
 * must match the EIP-55 checksum exactly. viem's strict check covers lowercase and mixed case but
 * refuses all-uppercase, hence the explicit case.
 */
export function isValidEvmAddress(value: unknown): boolean {
  if (typeof value !== 'string' || !EVM_PATTERN.test(value)) return false;
  const hex = value.slice(2);
  if (hex === hex.toUpperCase()) return true;
  return isAddress(value, { strict: true });
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

/**
 * Block explorers of the public ledgers, address pages: Etherscan (Ethereum mainnet and Sepolia),
 * Arbiscan (Arbitrum One), Polygonscan (Polygon PoS), Solana Explorer (mainnet-beta). Goerli has
 * none: the testnet was shut down in 2024 and its explorers with it; the type stays (spec §3).
 */
const explorerBase: Readonly<Record<number, string>> = {
  [PaymentProfileType.Ethereum]: 'https://etherscan.io/address/',
  [PaymentProfileType.Sepolia]: 'https://sepolia.etherscan.io/address/',
  [PaymentProfileType.Arbitrum]: 'https://arbiscan.io/address/',
  [PaymentProfileType.Polygon]: 'https://polygonscan.com/address/',
  [PaymentProfileType.Solana]: 'https://explorer.solana.com/address/',
};

/** Why a public-ledger kind has no explorer link, for a tooltip; undefined when it has one. */
export function explorerUnavailableReason(type: number): string | undefined {
  return type === PaymentProfileType.Goerli ? 'Goerli testnet is shut down' : undefined;
}

/** Block-explorer page of a public address for a ledger kind; undefined for IBAN kinds and Goerli. */
export function explorerLink(type: number, address: string): string | undefined {
  const base = explorerBase[type];
  return base ? `${base}${encodeURIComponent(address)}` : undefined;
}
