/** esbuild's `text` loader bundles a .graphql file as its exact text (checkout-ui/build.mjs). */
declare module '*.graphql' {
  const text: string;
  export default text;
}
