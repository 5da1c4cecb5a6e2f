/**
 * Numeric command-line flags, checked before a command touches the data directory: a typo
 * (`--scale abc`, `--port 99999`) fails with one line naming the flag instead of a stack from deep
 * inside the simulator or the HTTP server, after files were already created.
 */

/** Bounds of a numeric flag (all optional). */
export interface NumberFlagRules {
  /** smallest allowed value */
  min?: number;
  /** values must be greater than this (e.g. a scale: above 0) */
  above?: number;
  /** largest allowed value */
  max?: number;
  /** whole numbers only */
  integer?: boolean;
}

/** The value of `--name`, or an error naming the flag, the rule and what was given. */
export function numberFlag(name: string, text: string, rules: NumberFlagRules = {}): number {
  const value = text.trim() === '' ? Number.NaN : Number(text);
  const { min, above, max, integer = false } = rules;
  const ok = Number.isFinite(value) && (!integer || Number.isInteger(value)) && (min === undefined || value >= min) && (above === undefined || value > above) && (max === undefined || value <= max);
  if (ok) return value;
  const bounds = [min === undefined ? '' : `>= ${min}`, above === undefined ? '' : `> ${above}`, max === undefined ? '' : `<= ${max}`].filter(Boolean).join(' and ');
  throw new Error(`--${name} must be ${integer ? 'an integer' : 'a number'}${bounds ? ` ${bounds}` : ''}, got "${text}"`);
}
