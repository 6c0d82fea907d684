/**
 * The layers of src/ (docs/architecture.md), from the top:
 *
 *   entry      src/apps/: main, worker, cli, cluster, service, app (the assembly)
 *   pages+REST src/platform/rest/, the back office's pages, any *-page.ts (the checkout page)
 *   GraphQL    src/platform/graphql/ and every *.resolver.ts (a module's thin GraphQL face lives in its folder)
 *   HTTP       src/platform/http/: request context, the caller (actor), authentication, body errors, probes
 *   modules    src/modules/<domain>/: payments, checkout, refunds, disputes, withdrawals, webhooks, identity,
 *              ledger, admins, audit, notifications, back-office; and the move engine
 *              (src/platform/lifecycle/apply-move.ts, review-move.ts)
 *   adapters   src/platform/: db, processor, rate-limit, observability, mail (outside systems behind our own
 *              interfaces), outbox (the engine that drains every outbox)
 *   kernel     src/shared/: errors, pagination, ids, secrets, configuration (imports nothing of ours), and the
 *              lifecycle tables (src/platform/lifecycle/lifecycle.ts, src/modules/lifecycles.ts and each module's
 *              *.lifecycle.ts: pure data every layer reads)
 *
 * The back office (src/modules/back-office/) is the admins' read side: it may import any module, and only the
 * entry points (which assemble the schema) import it.
 *
 * Each module's index.ts is its face: another module imports only that, never the files behind it. The face
 * re-exports the module's resolvers and pages for the entry points, so it stands outside the layers above.
 *
 * An import may point down or sideways, never up; `npm test` runs this file and fails on any violation.
 */
const ENTRY = '^src/apps/';
const PAGES = '^src/platform/rest/|^src/modules/back-office/(admin-page|queue-dashboard)\\.ts$|^src/.+-page\\.ts$';
const GRAPHQL = '^src/platform/graphql/|^src/.+\\.resolver\\.ts$';
const HTTP = '^src/platform/http/';
const LIFECYCLE_TABLES = '^src/platform/lifecycle/lifecycle\\.ts$|^src/modules/lifecycles\\.ts$|^src/modules/[a-z-]+/[a-z-]+\\.lifecycle\\.ts$';
const FEATURES = '^src/modules/|^src/platform/lifecycle/(apply-move|review-move|move-statement)\\.ts$';
const ADAPTERS = '^src/platform/(db|processor|rate-limit|observability|mail|outbox)/';
const KERNEL = `^src/shared/|${LIFECYCLE_TABLES}`;
const BACK_OFFICE = '^src/modules/back-office/';
const MODULE_INDEX = '^src/modules/[^/]+/index\\.ts$';

const upward = (name, from, fromNot, above) => ({
  name,
  comment: `${name}: an import that points up a layer (docs/architecture.md)`,
  severity: 'error',
  from: { path: from, ...(fromNot ? { pathNot: fromNot } : {}) },
  // The lifecycle tables sit in their modules' folders but are the kernel's: every layer may read them.
  to: { path: above, pathNot: KERNEL },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'A cycle makes two modules one: neither can be understood, tested or moved alone. The exceptions: ' +
        "the two sides of an ORM relation name each other's type (a type-only import, no runtime arrow), and a " +
        "cycle through a module's index, which is two modules importing each other: .folder-cycles-allowed.json " +
        'lists those pairs and only shrinks (scripts/folder-cycles.mjs).',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'], pathNot: MODULE_INDEX } },
    },
    upward('pages-up', PAGES, null, ENTRY),
    upward('graphql-up', GRAPHQL, null, `${ENTRY}|${PAGES}`),
    upward('http-up', HTTP, null, `${ENTRY}|${PAGES}|${GRAPHQL}`),
    upward('feature-up', FEATURES, `${GRAPHQL}|${PAGES}|${MODULE_INDEX}`, `${ENTRY}|${PAGES}|${GRAPHQL}|${HTTP}`),
    upward('adapter-up', ADAPTERS, null, `${ENTRY}|${PAGES}|${GRAPHQL}|${HTTP}|${FEATURES}`),
    upward('kernel-up', KERNEL, null, `^src/(?!shared/)`),
    {
      name: 'back-office-is-a-leaf',
      comment: "The back office reads every module; only the entry points, which assemble the schema, read it.",
      severity: 'error',
      from: { path: '^src/', pathNot: `${BACK_OFFICE}|${ENTRY}` },
      to: { path: BACK_OFFICE },
    },
    {
      name: 'modules-through-their-index',
      comment:
        "A module's index.ts is its face: a file of another module imports that, never the files behind it. " +
        "The lifecycle tables are the kernel's, read where they are.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/([^/]+)/', pathNot: ['^src/modules/$1/', MODULE_INDEX, LIFECYCLE_TABLES] },
    },
    {
      name: 'index-is-only-a-face',
      comment: "A module's index.ts re-exports its own files and nothing else: that is all it may stand outside the layers for.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/index\\.ts$' },
      to: { pathNot: '^src/modules/$1/' },
    },
    {
      name: 'not-in-a-layer',
      comment: 'Every folder of src/ belongs to a layer: add a new one to this file and to docs/architecture.md.',
      severity: 'error',
      from: { path: '^src/', pathNot: `${ENTRY}|${PAGES}|${GRAPHQL}|${HTTP}|${FEATURES}|${ADAPTERS}|${KERNEL}` },
      to: {},
    },
  ],
  options: {
    // Type-only imports are arrows too: a feature that names a transport's type depends on it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.(mjs|d\\.ts)$|/reference-page/' },
  },
};
