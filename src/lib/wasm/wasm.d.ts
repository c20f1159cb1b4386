/** Workers bundles (wrangler's CompiledWasm rule): a `.wasm` import is a compiled module. */
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
