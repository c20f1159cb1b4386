/** Workers bundles (wrangler.toml's Text rule): the standalone bundle's source text. */
declare module "@scalar/api-reference/browser/standalone.js" {
  const source: string;
  export default source;
}
