/** esbuild's `text` loader: a .graphql file is bundled as its exact text. */
declare module '*.graphql' {
  const text: string;
  export default text;
}
