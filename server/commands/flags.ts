/**
 * Numeric command-line flags, checked before a command touches the data directory: a typo
 * (`--scale abc`, `--port 99999`) fails with one line naming the flag instead of a stack from deep
 * inside the simulator or the HTTP server, after files were already created.
 */

/** Bounds of a numeric flag. */
export interface NumberFlagRules {
  /** smallest allowed value (inclusive) */
  min?: number;
  /** largest allowed value (inclusive) */
  max?: number;
  /** whole numbers only */
  integer?: boolean;
  /** the smallest value itself is not allowed (e.g. a scale must be > 0) */
  minExclusive?: boolean;
}

/** The value of `--name`, or an error naming the flag, the rule and what was given. */
export function numberFlag(name: string, text: string, rules: NumberFlagRules = {}): number {
  const value = text.trim() === '' ? Number.NaN : Number(text);
  const { min, max, integer = false, minExclusive = false } = rules;
  const ok = Number.isFinite(value) && (!integer || Number.isInteger(value)) &&
    (min === undefined || (minExclusive ? value > min : value >= min)) && (max === undefined || value <= max);
  if (ok) return value;
  const kind = integer ? 'an integer' : 'a number';
  const low = min === undefined ? '' : minExclusive ? ` > ${min}` : ` >= ${min}`;
  const high = max === undefined ? '' : `${low ? ' and' : ''} <= ${max}`;
  throw new Error(`--${name} must be ${kind}${low}${high}, got "${text}"`);
}
