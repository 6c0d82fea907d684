/**
 * Imported first by every entry point, before anything loads graphql. Unless NODE_ENV is `production`,
 * graphql-js checks every `instanceof` it makes for a second copy of itself, which cost about 40% of the CPU
 * of a seller's list query (docs/decisions/0012-hot-paths.md). Nothing of ours reads NODE_ENV (Apollo's introspection,
 * stack traces and landing page are set explicitly), so an unset NODE_ENV means production here;
 * `NODE_ENV=development` keeps graphql-js's checks for someone debugging the schema.
 */
process.env.NODE_ENV ??= 'production';
