/**
 * The layers of src/ (docs/architecture.md), from the top:
 *
 *   entry      src/*.ts: main, worker, cli, cluster, service, app (the assembly)
 *   pages+REST src/rest/, src/admin-console/, any *-page.ts (the checkout page)
 *   GraphQL    src/graphql/ and every *.resolver.ts (a feature's thin GraphQL face lives in its folder)
 *   HTTP       src/http/: request context, the caller (actor), authentication, body errors, probes
 *   features   payments, checkout, refunds, disputes, withdrawals, webhooks, shops, ledger, admins, audit, accounts,
 *              notifications,
 *              lifecycles (the move functions, apply-move.ts and review-move.ts)
 *   adapters   db, processor, rate-limit, observability, mail (outside systems behind our own interfaces)
 *   kernel     src/shared/: errors, pagination, ids, secrets, configuration (imports nothing of ours), and the
 *              lifecycle tables (src/lifecycles/lifecycle.ts, all.ts, *.lifecycle.ts: pure data every layer reads)
 *
 * An import may point down or sideways, never up; `npm test` runs this file and fails on any violation.
 */
const ENTRY = '^src/[^/]+\\.ts$';
const PAGES = '^src/(rest|admin-console)/|^src/.+-page\\.ts$';
const GRAPHQL = '^src/graphql/|^src/.+\\.resolver\\.ts$';
const HTTP = '^src/http/';
const FEATURES = '^src/(payments|checkout|refunds|disputes|withdrawals|webhooks|shops|ledger|admins|audit|accounts|notifications)/|^src/lifecycles/(apply|review)-move\\.ts$';
const ADAPTERS = '^src/(db|processor|rate-limit|observability|mail)/';
const LIFECYCLE_TABLES = 'lifecycles/(lifecycle|all|[a-z-]+\\.lifecycle)\\.ts$';
const KERNEL = `^src/shared/|^src/${LIFECYCLE_TABLES}`;

const upward = (name, from, fromNot, above) => ({
  name,
  comment: `${name}: an import that points up a layer (docs/architecture.md)`,
  severity: 'error',
  from: { path: from, ...(fromNot ? { pathNot: fromNot } : {}) },
  to: { path: above },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'A cycle makes two modules one: neither can be understood, tested or moved alone. The one exception: ' +
        "the two sides of an ORM relation name each other's type (a type-only import, no runtime arrow).",
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    upward('pages-up', PAGES, null, ENTRY),
    upward('graphql-up', GRAPHQL, null, `${ENTRY}|${PAGES}`),
    upward('http-up', HTTP, null, `${ENTRY}|${PAGES}|${GRAPHQL}`),
    upward('feature-up', FEATURES, `${GRAPHQL}|${PAGES}`, `${ENTRY}|${PAGES}|${GRAPHQL}|${HTTP}`),
    upward('adapter-up', ADAPTERS, null, `${ENTRY}|${PAGES}|${GRAPHQL}|${HTTP}|${FEATURES}`),
    upward('kernel-up', KERNEL, null, `^src/(?!shared/|${LIFECYCLE_TABLES})`),
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
    exclude: { path: '\\.(mjs|d\\.ts)$|/browser/|/reference-page/' },
  },
};
