/** esbuild's `text` loader bundles a .graphql file as its exact text (ui/checkout/build.mjs). */
declare module '*.graphql' {
  const text: string;
  export default text;
}
