/** `GET /v1/protocols` and `GET /v1/protocols/stats`: the protocol list and cross-protocol aggregates. */
import { defineRoute, type RestRoute } from './define.ts';
import { ProtocolInfo, ProtocolOverview } from '../response-schemas/protocols.ts';
import { listOf } from '../response-schemas/envelopes.ts';
import { noQuery } from '../params.ts';
import type { Service } from '../../service.ts';
import { withActivityValidity } from '../activity-validity.ts';

/** `GET /v1/protocols`'s fixed list (ProtocolInfo). */
export const PROTOCOL_INFO = [
  { id: 'alpha', name: 'GMX-Solana', chain: 'solana' },
  { id: 'beta', name: 'Jupiter Perps', chain: 'solana' },
] as const;

/** GET /v1/protocols, GET /v1/protocols/stats. */
export function protocolRoutes(service: Service): RestRoute[] {
  return [
    defineRoute({
      path: '/v1/protocols',
      cost: 1,
      summary: 'List the supported protocols.',
      response: listOf(ProtocolInfo),
      query: noQuery,
      handle: () => ({ data: PROTOCOL_INFO }),
    }),
    defineRoute({
      path: '/v1/protocols/stats',
      cost: 1,
      summary: 'Open interest, 24h volume, fees, liquidations and market count per protocol.',
      response: listOf(ProtocolOverview),
      query: noQuery,
      handle: async ({ event }) => ({
        data: await withActivityValidity(service, event, service.now(), (now) => service.db.query('api/protocols-stats', { now })),
      }),
    }),
  ];
}
