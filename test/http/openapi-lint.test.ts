/** The OpenAPI document passes Redocly's recommended rules (server/docs/redocly.yaml) with no error. */
import { describe, expect, it } from 'vitest';
import { lintOpenApi } from '../../server/docs/lint-openapi.ts';

describe('OpenAPI lint', () => {
  it('reports no error', async () => {
    const { status, output } = await lintOpenApi();
    expect(output).toMatch(/Your API description is valid/);
    expect(status, output).toBe(0);
  });
});
