/**
 * The layers of src/ (docs/architecture.md), from the top; an import points down, or sideways inside a layer:
 *
 *   apps       src/apps/: main, worker, cli, cluster, service, app, schema (the assembly: entities, resolvers, routes)
 *   api        src/api/: what turns the outside world into module calls: the REST facade (rest/), the GraphQL server
 *              with its per-request context and auth checker (graphql/), authentication and the caller (http/)
 *   modules    src/modules/<domain>/: payments, checkout, refunds, disputes, withdrawals, webhooks, identity, ledger,
 *              admins, audit, notifications, request-log, dashboard, back-office; each with its resolvers, pages,
 *              lifecycle tables and the narrow request context its resolvers read
 *   platform   src/platform/<piece>/: db, graphql (the generic request scope and guards), http, lifecycle (the move
 *              engine and the table format), mail, observability, outbox (the engine that drains every outbox),
 *              processor (the acquirer port both ways, and each acquirer's adapter, its notification endpoint
 *              included), rate-limit: they know no module
 *   shared     src/shared/: errors, pagination, ids, secrets, configuration (imports nothing of ours)
 *
 * The root mikro-orm.config.ts lists the entities for the MikroORM CLI: only the apps may import it.
 *
 * The back office (src/modules/back-office/) is the admins' read side: it may import any module, and only the
 * entry points (which assemble the schema) and the api's context (which satisfies its narrow context) import it.
 *
 * Each module has two faces, and another module imports only those, never the files behind them: index.ts, what its
 * code does (services, rules, stores, entities), and web.ts, what it shows over HTTP (resolvers, object types, pages).
 * index.ts loads no GraphQL and no Express (test/unit/module-faces.test.ts), so a CLI command or a worker never does.
 *
 * Type-only imports count as arrows (`tsPreCompilationDeps`): a module naming a type of the api depends on it.
 * `npm test` runs this file and fails on any violation.
 */
const APPS = '^src/apps/';
const API = '^src/api/';
const MODULES = '^src/modules/';
const PLATFORM = '^src/platform/';
const SHARED = '^src/shared/';
const ROOT_CONFIG = '^mikro-orm\\.config\\.ts$';
/** Each module's tables, and an acquirer adapter's inbox table, kept beside its store (the platform reads no module). */
const LIFECYCLE_TABLES = '^src/modules/lifecycles\\.ts$|^src/modules/[a-z-]+/[a-z-]+\\.lifecycle\\.ts$|^src/platform/processor/[a-z-]+/[a-z-]+\\.lifecycle\\.ts$';
const TABLE_FORMAT = '^src/platform/lifecycle/lifecycle\\.ts$';
const ADAPTERS = '^src/platform/(db|processor|rate-limit|observability|mail|outbox)/';
/** An acquirer's notification endpoint, in its adapter's folder: an Express router, so it reads the request's context. */
const ACQUIRER_ENDPOINTS = '^src/platform/processor/[a-z-]+/[a-z-]+-endpoint\\.ts$';
/** What a module may know of an acquirer: the port, both ways. */
const ACQUIRER_PORT = '^src/platform/processor/(card-processor|acquirer-inbound)\\.ts$';
const BACK_OFFICE = '^src/modules/back-office/';
const MODULE_INDEX = '^src/modules/[^/]+/index\\.ts$';
const MODULE_WEB = '^src/modules/[^/]+/web\\.ts$';

const downward = (name, from, fromNot, above, why) => ({
  name,
  comment: `${name}: ${why} (docs/architecture.md, "Layers")`,
  severity: 'error',
  from: { path: from, ...(fromNot ? { pathNot: fromNot } : {}) },
  to: { path: above },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'A cycle makes two files one: neither can be understood, tested or moved alone. A type-only import is an ' +
        'arrow too, and a cycle through a module\'s index is one like any other (scripts/folder-cycles.mjs forbids ' +
        'the same between folders). No cycle is exempt.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    downward('platform-knows-no-module', PLATFORM, null, `${MODULES}|${API}|${APPS}|${ROOT_CONFIG}`, 'the platform serves every module and names none'),
    downward('modules-below-the-api', MODULES, null, `${API}|${APPS}|${ROOT_CONFIG}`, 'a module is called by the api and assembled by the apps, never the other way'),
    downward('api-below-the-apps', API, null, `${APPS}|${ROOT_CONFIG}`, 'the api is assembled by the apps'),
    downward('shared-imports-nothing', SHARED, null, `^src/(?!shared/)|${ROOT_CONFIG}`, 'the shared kernel imports nothing of ours'),
    downward('lifecycle-tables-are-data', LIFECYCLE_TABLES, null, `^src/(?!shared/|platform/lifecycle/lifecycle\\.ts$)(?!(modules|platform/processor)/[a-z-]+/[a-z-]+\\.lifecycle\\.ts$)(?!modules/lifecycles\\.ts$)`, "a lifecycle table is data every layer reads: it names only the table format, the shared kernel and other tables"),
    downward('table-format-is-data', TABLE_FORMAT, null, `^src/(?!shared/)`, 'the lifecycle table format imports only the shared kernel'),
    downward('adapters-below-http', ADAPTERS, ACQUIRER_ENDPOINTS, '^src/platform/(http|graphql)/', "an adapter (database, acquirer, Redis, mail, metrics) knows no request, but an acquirer's notification endpoint"),
    {
      name: 'modules-know-only-the-acquirer-port',
      comment:
        'A module sees an acquirer through the port alone (card-processor.ts, acquirer-inbound.ts), never an adapter ' +
        "(but the list of lifecycles, which names an adapter's inbox table): " +
        'the next acquirer is a folder, one line in processors.ts and one in the app (docs/architecture.md, "Adding an acquirer").',
      severity: 'error',
      from: { path: MODULES },
      to: { path: '^src/platform/processor/', pathNot: `${ACQUIRER_PORT}|${LIFECYCLE_TABLES}` },
    },
    {
      name: 'back-office-is-a-leaf',
      comment:
        "The back office reads every module; only the entry points, which assemble the schema, read it (and the api's " +
        'context, which names its narrow context to check it).',
      severity: 'error',
      from: { path: '^src/', pathNot: `${BACK_OFFICE}|${APPS}|^src/api/graphql/context\\.ts$` },
      to: { path: BACK_OFFICE },
    },
    {
      name: 'modules-through-their-index',
      comment:
        "A module's index.ts and web.ts are its faces: a file of another module imports those, never the files behind them. " +
        'The lifecycle tables are data, read where they are.',
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/([^/]+)/', pathNot: ['^src/modules/$1/', MODULE_INDEX, MODULE_WEB, LIFECYCLE_TABLES] },
    },
    {
      name: 'index-is-only-a-face',
      comment: "A module's index.ts and web.ts re-export its own files and nothing else.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/(index|web)\\.ts$' },
      to: { pathNot: '^src/modules/$1/' },
    },
    {
      name: 'entities-are-storage',
      comment:
        'An entity (*.entity.ts) maps a table and nothing else: its GraphQL shape is its *.object.ts beside it, so the ' +
        'schema can change without the table and the other way round (docs/architecture.md, "Entities and object types").',
      severity: 'error',
      from: { path: '\\.entity\\.ts$' },
      to: { path: 'node_modules/(type-graphql|graphql-scalars|graphql)/' },
    },
    {
      name: 'object-types-are-read-shapes',
      comment: 'A GraphQL object type (*.object.ts) declares what a reader sees; it knows nothing of the ORM that stores it.',
      severity: 'error',
      from: { path: '\\.object\\.ts$' },
      to: { path: 'node_modules/@mikro-orm/' },
    },
    {
      name: 'not-in-a-layer',
      comment: 'Every folder of src/ belongs to a layer: add a new one to this file and to docs/architecture.md.',
      severity: 'error',
      from: { path: '^src/', pathNot: `${APPS}|${API}|${MODULES}|${PLATFORM}|${SHARED}` },
      to: {},
    },
  ],
  options: {
    // Type-only imports are arrows too: a module that names the api's type depends on it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.(mjs|d\\.ts)$|/reference-page/' },
  },
};
