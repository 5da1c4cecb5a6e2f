/**
 * Import rules of the code base, checked by `npm run lint:deps` in CI (.ci/run): a violation fails
 * the build. The layering they enforce is drawn in docs/architecture.md; the rules the tree cannot
 * keep yet are listed there under "Next step", not silenced here.
 */

// Small helpers with no project dependency of their own: everything may import them.
const LIB = '^server/lib/';
// The write side: the journal, the append path, the derived state and the service that holds them.
const WRITE_SIDE = '^server/((db|journal|ingest|derive)/|service[.]ts$)';
// The read side and the front doors: the read models, the response cache, HTTP, MCP, the fills stream, keys and limits.
const READ_SIDE = '^server/(read|cache|http|mcp|stream|limits|keys)/';
// The composition root (the CLI, its commands, the app's wiring) and tools: benchmarks, chaos runs, the docs generators, codemods.
const TOOLS = '^server/(main/|bench/|chaos/|docs/|tools/)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A cycle makes module load order matter and ties layers together: no module may reach itself.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lib-imports-no-project-code',
      comment: 'The small helpers are the bottom layer: they may import each other, nothing else of ours.',
      severity: 'error',
      from: { path: LIB },
      to: { path: '^(server|jobs|test)/', pathNot: LIB },
    },
    {
      name: 'db-imports-only-lib',
      comment: 'DuckDB and the SQL loader sit under everything: they know no journal, no route, no job.',
      severity: 'error',
      from: { path: '^server/db/' },
      to: { path: '^(server|jobs)/', pathNot: [LIB, '^server/db/'] },
    },
    {
      name: 'write-side-not-to-read-side',
      comment: 'The journal, ingest and derive must run without any HTTP, MCP, stream, key or limit code (replay, rebuild, jobs).',
      severity: 'error',
      from: { path: WRITE_SIDE },
      to: { path: [READ_SIDE, TOOLS] },
    },
    {
      name: 'sources-not-to-read-side',
      comment: 'A source only appends: it must not depend on how answers are served.',
      severity: 'error',
      from: { path: '^server/sources/' },
      to: { path: [READ_SIDE, TOOLS] },
    },
    {
      name: 'jobs-not-to-read-side',
      comment: 'The scheduled jobs maintain the derived state; they must not depend on how it is served.',
      severity: 'error',
      from: { path: '^jobs/' },
      to: { path: [READ_SIDE, TOOLS] },
    },
    {
      name: 'http-not-to-sources',
      comment: 'Routes answer from the derived state whatever feeds it; only the shared status object (service.source) is read.',
      severity: 'error',
      from: { path: '^server/http/' },
      to: { path: '^server/sources/', pathNot: '^server/sources/source-status[.]ts$' },
    },
    {
      name: 'read-side-not-to-front-door',
      comment: 'The read models answer questions about the derived state for any front door: no h3, no route, no cache, no composition.',
      severity: 'error',
      from: { path: '^server/read/' },
      to: { path: ['^server/(http|cache|main|mcp|stream|limits)/', '^node_modules/(h3|srvx|crossws)/', TOOLS] },
    },
    {
      name: 'cache-not-to-front-door',
      comment: 'The response cache knows routes only through the policy each route hands it: it imports no route, no HTTP helper, no MCP.',
      severity: 'error',
      from: { path: '^server/cache/' },
      to: { path: ['^server/(http|main|mcp|stream|limits)/', TOOLS] },
    },
    {
      name: 'http-not-to-mcp',
      comment: 'MCP is a front door over the REST routes, mounted by the composition root (server/main/app.ts): HTTP does not import it.',
      severity: 'error',
      from: { path: '^server/http/' },
      to: { path: '^server/mcp/' },
    },
    {
      name: 'keys-imports-only-lib',
      comment: 'The key store is read by HTTP, MCP, the stream and the CLI alike: it depends on none of them.',
      severity: 'error',
      from: { path: '^server/keys/' },
      to: { path: '^(server|jobs)/', pathNot: [LIB, '^server/keys/'] },
    },
    {
      name: 'nothing-imports-tools',
      comment: 'The CLI, benchmarks, chaos runs and docs generators are entry points: the service never loads them.',
      severity: 'error',
      from: { path: '^(server|jobs)/', pathNot: TOOLS },
      to: { path: TOOLS },
    },
    {
      name: 'production-not-to-test',
      comment: 'Test helpers and fixtures never ship in the service (the chaos run, a dev tool, reuses the rebuild comparison).',
      severity: 'error',
      from: { path: '^(server|jobs)/', pathNot: '^server/chaos/' },
      to: { path: '^test/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing fails at run time.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-non-package-json',
      comment: "Every package imported is declared in package.json (not reached through another one's dependencies).",
      severity: 'error',
      from: {},
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'service-not-to-dev-dep',
      comment: 'The running service (npm ci --omit=dev) must not need a devDependency; tools and tests may.',
      severity: 'error',
      from: { path: '^(server|jobs)/', pathNot: TOOLS },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    // type-only imports count: a layer that needs another's types depends on it
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    // the explorer is browser code with its own tsconfig and bundle
    exclude: { path: '^server/explorer/' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
