/** What a view is given: the protocol, its route arguments, its root element and its lifetime. */
export const PROTOCOLS = ['alpha', 'beta'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

export interface ViewContext {
  protocol: Protocol;
  /** the route's segments after the view name, decoded */
  args: string[];
  root: HTMLElement;
  /** false once the user has moved on: late answers are dropped */
  alive(): boolean;
  /** runs when the view goes (close sockets, stop timers) */
  onLeave(cleanup: () => void): void;
}

/** The hash of a view: `#/<protocol>/<view>/<args…>`. */
export function href(protocol: Protocol, view: string, ...args: (string | number)[]): string {
  return `#/${protocol}/${view}${args.map((a) => `/${encodeURIComponent(String(a))}`).join('')}`;
}

/** API path prefix of a protocol. */
export function base(protocol: Protocol): string {
  return `/v1/${protocol}`;
}
