/**
 * The route a request path belongs to, as its template (`/v1/alpha/accounts/:address`), for
 * metrics and the access log: a label per endpoint, never per address or id (the label set stays
 * small, and nothing a client typed ends up in a label).
 */
export type RouteLabeler = (pathname: string) => string;

/** Compiles templates (`:name` segments, `**` tails) into a labeler; unknown paths are `unmatched`. */
export function routeLabeler(templates: readonly string[]): RouteLabeler {
  const exact = new Map<string, string>();
  const patterns: [RegExp, string][] = [];
  for (const t of new Set(templates)) {
    if (!t.includes(':') && !t.includes('*')) exact.set(t, t);
    else {
      const re = t
        .split('/')
        .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg === '**' ? '.*' : seg === '*' ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('/');
      patterns.push([new RegExp(`^${re}/?$`), t]);
    }
  }
  return (pathname) => {
    const p = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
    const hit = exact.get(p);
    if (hit) return hit;
    for (const [re, t] of patterns) if (re.test(p)) return t;
    return 'unmatched';
  };
}

/** The route templates an h3 app registered (h3 keeps them on the app; none if that changes). */
export function routeTemplatesOf(app: unknown): string[] {
  const routes = (app as { '~routes'?: { route?: unknown }[] })['~routes'];
  return Array.isArray(routes) ? routes.map((r) => r.route).filter((r): r is string => typeof r === 'string') : [];
}
