/**
 * Solana addresses as the API takes them: base58 text of a 32-byte public key, 32 to 44 characters
 * of Bitcoin's base58 alphabet (no 0, O, I or l). One copy, imported by every route and the stream.
 */

/** The base58 alphabet, in digit order. */
export const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** A whole base58 wallet or account address. */
export const BASE58_ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** The validation message of a parameter that must be an address. */
export const BASE58_ADDRESS_MESSAGE = 'must be a base58 wallet address (32-44 characters)';
