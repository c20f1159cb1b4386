import { hex } from "./crypto";
import { createWasmPasswordHasher, type PasswordHasher } from "./password";

/**
 * hash-wasm on Workers.
 *
 * hash-wasm embeds its WebAssembly as base64 and compiles it at run time with
 * `WebAssembly.compile(bytes)`. workerd (and Cloudflare) refuse that: "Wasm code generation
 * disallowed by embedder". Modules must be compiled at deploy time, which wrangler does for
 * `.wasm` imports (the CompiledWasm module rule). So `src/lib/wasm/argon2.wasm` and
 * `blake2b.wasm` are byte-for-byte copies of the binaries hash-wasm embeds, the Worker imports
 * them, and servePrecompiledWasm() answers hash-wasm's compile calls with those modules.
 * The hashing code stays hash-wasm's (createWasmPasswordHasher), so PHC strings are the same on
 * every runtime.
 *
 * A compile call is matched by the SHA-256 of its bytes: after a hash-wasm upgrade that changes
 * its binaries nothing matches and the call fails with a message saying what to regenerate,
 * rather than running old wasm under new glue code. Regenerate with:
 *
 *   node -e 'const fs=require("fs");const s=fs.readFileSync("node_modules/hash-wasm/dist/index.esm.js","utf8");for(const n of ["argon2","blake2b"]){const m=new RegExp(`var name\\$\\w+ = "${n}";\\nvar data\\$\\w+ = "([^"]+)"`).exec(s);fs.writeFileSync(`src/lib/wasm/${n}.wasm`,Buffer.from(m[1],"base64"))}'
 *
 * then update HASH_WASM_SHA256 (`sha256sum src/lib/wasm/*.wasm`); the e2e worker test checks
 * the three agree.
 */

/** SHA-256 of the binaries hash-wasm (4.13) embeds, which src/lib/wasm/*.wasm copy. */
export const HASH_WASM_SHA256 = {
  argon2: "7a25eff94eb7bc559acb7305d8352ed24470670a9ae653d79d86f92f8a395c3d",
  blake2b: "2aa7f33c4ece502997304672bc8defa348a7a30ef9a191e8648d317830e50afd",
} as const;

type HashWasmBinary = keyof typeof HASH_WASM_SHA256;

/** The compiled modules for the binaries argon2id needs (argon2 and blake2b). */
export type HashWasmModules = Record<HashWasmBinary, WebAssembly.Module>;

const served = new Map<string, WebAssembly.Module>();
let originalCompile: typeof WebAssembly.compile | undefined;

/**
 * Makes `WebAssembly.compile(bytes)` answer with a precompiled module when the bytes are one of
 * hash-wasm's known binaries; anything else goes to the runtime's own compile. Idempotent.
 */
function servePrecompiledWasm(modules: HashWasmModules): void {
  for (const name of Object.keys(HASH_WASM_SHA256) as HashWasmBinary[]) {
    served.set(HASH_WASM_SHA256[name], modules[name]);
  }
  if (originalCompile) return;
  const original = WebAssembly.compile.bind(WebAssembly);
  originalCompile = original;
  WebAssembly.compile = async (source: BufferSource) => {
    const digest = hex(await crypto.subtle.digest("SHA-256", source));
    const module = served.get(digest);
    if (module) return module;
    try {
      return await original(source);
    } catch (error) {
      throw new Error(
        `WebAssembly.compile of ${source.byteLength} bytes (sha256 ${digest}) failed and no ` +
          "precompiled module matches: if hash-wasm was upgraded, regenerate src/lib/wasm/ " +
          "(see src/lib/password-wasm-module.ts)",
        { cause: error },
      );
    }
  };
}

/** createWasmPasswordHasher for runtimes that forbid compiling wasm from bytes (Workers). */
export function createPrecompiledWasmPasswordHasher(modules: HashWasmModules): PasswordHasher {
  servePrecompiledWasm(modules);
  return createWasmPasswordHasher();
}
