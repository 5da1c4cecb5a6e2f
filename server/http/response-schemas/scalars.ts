/** The scalar pieces of the 200 bodies (timestamps, amounts, ids), each with its description. */
import * as v from 'valibot';

/** Output timestamp: `YYYY-MM-DDTHH:MM:SS.sssZ` (UTC, always 3 fraction digits; contract §1). */
export const timestamp = v.pipe(v.string(), v.isoTimestamp(), v.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/), v.description('UTC timestamp with milliseconds, YYYY-MM-DDTHH:MM:SS.sssZ.'));
/** A JSON integer. */
export const integer = v.pipe(v.number(), v.integer());
/** A non-negative JSON integer (counts). */
export const count = v.pipe(v.number(), v.integer(), v.minValue(0));
/** A USD amount (rounded to 6 decimals). */
export const usd = v.number();
/** A non-negative USD amount (notional, volume, fees). */
export const usdNonNegative = v.pipe(v.number(), v.minValue(0));
/** A ratio from 0 to 1 (win rates). */
export const ratio = v.pipe(v.number(), v.minValue(0), v.maxValue(1));
/** Protocol identifiers. */
export const protocolId = v.picklist(['alpha', 'beta']);
/** Position side. */
export const side = v.picklist(['long', 'short']);
/** Grouped market symbol `<INDEX>-PERP`. */
export const market = v.pipe(v.string(), v.description('Grouped market symbol <INDEX>-PERP.'));
/** Native variant id, null when unavailable. */
export const marketVariant = v.nullable(v.pipe(v.string(), v.description('Protocol-native variant id <INDEX>/USD[<collateral tokens>].')));
/** Base58 wallet address. */
export const address = v.pipe(v.string(), v.description('Base58 wallet address.'));
/** Hourly rate, signed: positive = the side receives. */
export const hourlyRate = v.pipe(v.number(), v.description('Net hourly rate; positive = the side receives.'));

/** `schema` with a description, which the OpenAPI document shows on the field. */
export function described<S extends v.GenericSchema>(schema: S, text: string) {
  return v.pipe(schema, v.description(text));
}
