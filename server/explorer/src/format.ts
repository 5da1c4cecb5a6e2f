/** Number and time formats of the page (en-US, UTC). */

const compactUsd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', maximumFractionDigits: 2 });
const fullUsd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2, minimumFractionDigits: 2 });
const count = new Intl.NumberFormat('en-US');

/** `$1.23M`; `–` for null. */
export function usd(value: number | null | undefined): string {
  if (value === null || value === undefined) return '–';
  return Math.abs(value) < 1_000 ? fullUsd.format(value) : compactUsd.format(value);
}

/** `$1,234.56`, exact to the cent. */
export function usdFull(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : fullUsd.format(value);
}

/** A signed USD amount with its sign shown. */
export function signedUsd(value: number | null | undefined): string {
  if (value === null || value === undefined) return '–';
  return (value > 0 ? '+' : '') + usd(value);
}

export function integer(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : count.format(value);
}

/** A price with as many significant digits as it needs. */
export function price(value: number | null | undefined): string {
  if (value === null || value === undefined) return '–';
  const digits = value >= 1_000 ? 2 : value >= 1 ? 4 : 6;
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: Math.min(2, digits) });
}

/** An hourly rate as `%/h` with its annualized figure (rates are per hour, × 24 × 365 a year). */
export function rate(hourly: number | null | undefined): string {
  if (hourly === null || hourly === undefined) return '–';
  return `${(hourly * 100).toFixed(4)}%/h (${(hourly * 24 * 365 * 100).toFixed(1)}%/y)`;
}

/** A 0-1 fraction as a percentage. */
export function percent(fraction: number | null | undefined, digits = 1): string {
  return fraction === null || fraction === undefined ? '–' : `${(fraction * 100).toFixed(digits)}%`;
}

export function leverage(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : `${value.toFixed(1)}×`;
}

/** An ISO time as `YYYY-MM-DD hh:mm:ss` (UTC). */
export function time(iso: string | null | undefined): string {
  if (!iso) return '–';
  return iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '');
}

/** `7Ab3…9fQx`. */
export function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, 4)}…${address.slice(-4)}` : address;
}

/** A duration in hours as `3d 4h` / `5h 12m`. */
export function hours(value: number | null | undefined): string {
  if (value === null || value === undefined) return '–';
  const minutes = Math.round(value * 60);
  if (minutes < 60) return `${minutes}m`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
  return `${Math.floor(minutes / 1440)}d ${Math.floor((minutes % 1440) / 60)}h`;
}

/** CSS class of a signed value: gains green, losses red. */
export function tone(value: number | null | undefined): string {
  return value === null || value === undefined || value === 0 ? '' : value > 0 ? 'up' : 'down';
}
