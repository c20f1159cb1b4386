import { argon2id } from "hash-wasm";

/** Port for password hashing: argon2id in PHC string form on every runtime. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(phcHash: string, password: string): Promise<boolean>;
}

/**
 * OWASP's argon2id recommendation (m=19 MiB, t=2, p=1). Field names follow hash-wasm's options;
 * `memorySize` is in KiB. Hashes are stored as PHC strings:
 * `$argon2id$v=19$m=19456,t=2,p=1$<b64 salt, no padding>$<b64 hash, no padding>`.
 */
export const ARGON2_PARAMS = {
  memorySize: 19456,
  iterations: 2,
  parallelism: 1,
  saltLength: 16,
  hashLength: 32,
} as const;

/**
 * Bounds a stored hash must stay within before we spend CPU and memory on it. They are wider than
 * ARGON2_PARAMS so the policy can be raised later, yet stop a corrupt row from asking for
 * gigabytes of memory (a Worker has 128 MB).
 */
const VERIFY_LIMITS = {
  maxMemorySize: 65536,
  maxIterations: 10,
  maxParallelism: 8,
  minSaltLength: 8,
  maxSaltLength: 64,
  minHashLength: 16,
  maxHashLength: 64,
} as const;

export interface Argon2idPhc {
  memorySize: number;
  iterations: number;
  parallelism: number;
  salt: Uint8Array;
  hash: Uint8Array;
}

const PHC_RE =
  /^\$argon2id\$v=19\$m=(\d{1,10}),t=(\d{1,10}),p=(\d{1,3})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** Strict unpadded base64: a non-canonical spelling (stray low bits in the last char) is refused. */
function decodeB64NoPad(text: string): Uint8Array | null {
  let bin: string;
  try {
    bin = atob(text); // forgiving-base64: accepts missing padding
  } catch {
    return null;
  }
  if (btoa(bin).replace(/=+$/, "") !== text) return null;
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * Parses an argon2id (v=19) PHC string. Returns null for anything malformed, another variant, or
 * parameters outside the verify limits.
 */
export function parseArgon2idPhc(phc: string): Argon2idPhc | null {
  if (typeof phc !== "string" || phc.length > 512) return null;
  const m = PHC_RE.exec(phc);
  if (!m) return null;
  const memorySize = Number(m[1]);
  const iterations = Number(m[2]);
  const parallelism = Number(m[3]);
  const salt = decodeB64NoPad(m[4]!);
  const hash = decodeB64NoPad(m[5]!);
  if (!salt || !hash) return null;
  const L = VERIFY_LIMITS;
  if (parallelism < 1 || parallelism > L.maxParallelism) return null;
  if (iterations < 1 || iterations > L.maxIterations) return null;
  if (memorySize < 8 * parallelism || memorySize > L.maxMemorySize) return null;
  if (salt.length < L.minSaltLength || salt.length > L.maxSaltLength) return null;
  if (hash.length < L.minHashLength || hash.length > L.maxHashLength) return null;
  return { memorySize, iterations, parallelism, salt, hash };
}

/** True when a stored hash was made with other parameters than ARGON2_PARAMS (rehash on login). */
export function needsRehash(phc: string): boolean {
  const p = parseArgon2idPhc(phc);
  return (
    !p ||
    p.memorySize !== ARGON2_PARAMS.memorySize ||
    p.iterations !== ARGON2_PARAMS.iterations ||
    p.parallelism !== ARGON2_PARAMS.parallelism ||
    p.salt.length !== ARGON2_PARAMS.saltLength ||
    p.hash.length !== ARGON2_PARAMS.hashLength
  );
}

function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/**
 * argon2id through hash-wasm (pure WebAssembly, no native code).
 *
 * hash() uses hash-wasm's `outputType: "encoded"`, which is the standard PHC string. verify() does
 * not call hash-wasm's argon2Verify: that one compares the encoded strings with `===` and would
 * run whatever parameters a stored string names. Instead the string is parsed and bounded here,
 * the raw hash recomputed and compared in constant time.
 *
 * Workers caveat: hash-wasm compiles its embedded wasm with `WebAssembly.compile(bytes)`, which
 * workerd refuses ("Wasm code generation disallowed by embedder"). On Workers the argon2 and
 * blake2b modules must be bundled as `.wasm` imports and served to that call before this hasher
 * runs; see the Worker runtime.
 */
export function createWasmPasswordHasher(): PasswordHasher {
  return {
    async hash(password) {
      const salt = crypto.getRandomValues(new Uint8Array(ARGON2_PARAMS.saltLength));
      return argon2id({
        password,
        salt,
        memorySize: ARGON2_PARAMS.memorySize,
        iterations: ARGON2_PARAMS.iterations,
        parallelism: ARGON2_PARAMS.parallelism,
        hashLength: ARGON2_PARAMS.hashLength,
        outputType: "encoded",
      });
    },
    async verify(phcHash, password) {
      const parsed = parseArgon2idPhc(phcHash);
      // hash-wasm rejects an empty password; no stored hash can match one anyway.
      if (!parsed || typeof password !== "string" || password.length === 0) return false;
      try {
        const actual = await argon2id({
          password,
          salt: parsed.salt,
          memorySize: parsed.memorySize,
          iterations: parsed.iterations,
          parallelism: parsed.parallelism,
          hashLength: parsed.hash.length,
          outputType: "binary",
        });
        return constantTimeEqual(actual, parsed.hash);
      } catch {
        return false;
      }
    },
  };
}

/** Thrown by boundedHasher when its queue is full; the HTTP layer answers 503. */
export class HasherBusyError extends Error {
  constructor() {
    super("Password hashing is busy, try again shortly");
    this.name = "HasherBusyError";
  }
}

/**
 * Limits how many hashes run at once (`concurrency`) and how many may wait (`maxQueue`). A call
 * beyond both rejects at once with HasherBusyError, so a login flood costs a bounded amount of
 * CPU and memory instead of starving every other route. Waiters are served in arrival order and
 * give up with HasherBusyError after `maxWaitMs` (default 10 s).
 *
 * On Workers each waiter's own timer matters: workerd cancels a request as "hung" when all it
 * awaits is a promise another request will resolve, and a pending timer is what keeps it alive.
 */
export function boundedHasher(
  inner: PasswordHasher,
  opts: { concurrency: number; maxQueue: number; maxWaitMs?: number },
): PasswordHasher {
  const { concurrency, maxQueue, maxWaitMs = 10_000 } = opts;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError("boundedHasher: concurrency must be an integer >= 1");
  }
  if (!Number.isInteger(maxQueue) || maxQueue < 0) {
    throw new RangeError("boundedHasher: maxQueue must be an integer >= 0");
  }
  if (!(maxWaitMs > 0)) throw new RangeError("boundedHasher: maxWaitMs must be > 0");
  let active = 0;
  const waiting: Array<() => void> = [];

  async function acquire(): Promise<void> {
    if (active < concurrency) {
      active++;
      return;
    }
    if (waiting.length >= maxQueue) throw new HasherBusyError();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        const grant = () => resolve();
        waiting.push(grant);
        timer = setTimeout(() => {
          const i = waiting.indexOf(grant);
          if (i === -1) return; // already granted a slot
          waiting.splice(i, 1);
          reject(new HasherBusyError());
        }, maxWaitMs);
      });
    } finally {
      // Cleared here, in the waiter's own context, rather than by the releasing call.
      clearTimeout(timer);
    }
  }

  function release(): void {
    const next = waiting.shift();
    // Hand the slot straight to the next waiter so a newcomer cannot jump the queue.
    if (next) next();
    else active--;
  }

  async function run<T>(task: () => Promise<T>): Promise<T> {
    await acquire();
    try {
      return await task();
    } finally {
      release();
    }
  }

  return {
    hash: (password) => run(() => inner.hash(password)),
    verify: (phcHash, password) => run(() => inner.verify(phcHash, password)),
  };
}
