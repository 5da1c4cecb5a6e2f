/** The error body of every non-200 answer and the error codes it may carry. */
import * as v from 'valibot';
import type { ErrorCode } from '../errors.ts';
import { described } from './scalars.ts';

/** Every error code of the contract (§2), plus `bad_request` (a malformed request no row covers). */
export const ERROR_CODES = [
  'invalid_parameter',
  'unknown_parameter',
  'window_too_large',
  'bad_request',
  'unauthorized',
  'plan_required',
  'not_found',
  'method_not_allowed',
  'rate_limited',
  'credits_exhausted',
  'internal_error',
] as const satisfies readonly ErrorCode[];

// Compile-time check that ERROR_CODES lists every ErrorCode.
type MissingCodes = Exclude<ErrorCode, (typeof ERROR_CODES)[number]>;
const _allCodesListed: MissingCodes extends never ? true : never = true;
void _allCodesListed;

/** The error body `{ error: { code, message, param? } }` restricted to `codes`. */
export function errorBodyOf(codes: readonly ErrorCode[]) {
  return v.strictObject({
    error: described(
      v.strictObject({
        code: described(v.picklist(codes), 'Machine-readable error code (snake_case).'),
        message: v.pipe(v.string(), v.description('One human sentence.')),
        param: v.optional(v.pipe(v.string(), v.description('The query parameter at fault (400 only).'))),
      }),
      'What went wrong.',
    ),
  });
}

/** The error body with any code. */
export const ErrorBody = errorBodyOf(ERROR_CODES);
