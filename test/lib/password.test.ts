import { type Algorithm, hash as nodeRsHash } from "@node-rs/argon2";
import { describe, expect, it } from "vitest";
import {
  ARGON2_PARAMS,
  boundedHasher,
  createWasmPasswordHasher,
  HasherBusyError,
  needsRehash,
  type PasswordHasher,
  parseArgon2idPhc,
} from "../../src/lib/password";
import { createNodePasswordHasher } from "../../src/runtime/node/password";

// Exact OWASP parameters, 16-byte salt (22 b64 chars) and 32-byte hash (43 b64 chars), no padding.
const PHC_EXACT = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/;

const node = createNodePasswordHasher();
const wasm = createWasmPasswordHasher();
const hashers: Array<[string, PasswordHasher]> = [
  ["node", node],
  ["wasm", wasm],
];

describe("ARGON2_PARAMS", () => {
  it("is OWASP's argon2id recommendation", () => {
    expect(ARGON2_PARAMS).toEqual({
      memorySize: 19456,
      iterations: 2,
      parallelism: 1,
      saltLength: 16,
      hashLength: 32,
    });
  });
});

describe.each(hashers)("%s hasher", (_name, hasher) => {
  it("produces a PHC string with the exact parameters and a fresh salt", async () => {
    const a = await hasher.hash("correct horse battery staple");
    const b = await hasher.hash("correct horse battery staple");
    expect(a).toMatch(PHC_EXACT);
    expect(b).toMatch(PHC_EXACT);
    expect(a).not.toBe(b);
    const parsed = parseArgon2idPhc(a);
    expect(parsed?.salt.length).toBe(16);
    expect(parsed?.hash.length).toBe(32);
    expect(needsRehash(a)).toBe(false);
  });

  it("verifies the right password and rejects a wrong one", async () => {
    const phc = await hasher.hash("s3cret-pässwörd");
    expect(await hasher.verify(phc, "s3cret-pässwörd")).toBe(true);
    expect(await hasher.verify(phc, "s3cret-passwort")).toBe(false);
    expect(await hasher.verify(phc, "")).toBe(false);
  });

  it("returns false (never throws) for malformed hashes", async () => {
    const good = await hasher.hash("pw123456");
    const flip = (c: string) => (c === "A" ? "B" : "A");
    const mid = good.length - 10;
    const tampered = `${good.slice(0, mid)}${flip(good[mid]!)}${good.slice(mid + 1)}`;
    // 32 bytes take 43 chars whose last carries 2 unused bits: spelling them differently must
    // not verify either (strict, canonical base64 as in the PHC spec).
    const last = good.at(-1)!;
    const sameBits = String.fromCharCode(last.charCodeAt(0) + 1); // value + 1: same data bits
    const malformed = [
      "",
      "not-a-hash",
      "$argon2id$v=19$m=19456,t=2,p=1$",
      "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$",
      good.slice(0, -5), // truncated hash
      good.replace("$v=19$", "$v=16$"),
      good.replace("$argon2id$", "$argon2i$"), // other variant
      good.replace("m=19456", "m=4194304"), // would need 4 GiB: refused before hashing
      good.replace("t=2", "t=0"),
      tampered,
      `${good.slice(0, -1)}${sameBits}`,
      `${good.slice(0, good.lastIndexOf("$"))}$***`,
      "$2b$10$abcdefghijklmnopqrstuuJ3Qm0Y7jM5n3y1yQG8u1jv1iWQq8xW", // bcrypt
    ];
    for (const phc of malformed) {
      await expect(hasher.verify(phc, "pw123456"), phc).resolves.toBe(false);
    }
  });
});

describe("node and wasm hashers are interchangeable", () => {
  it("a Node hash verifies under wasm", async () => {
    const phc = await node.hash("from node 🚀");
    expect(await wasm.verify(phc, "from node 🚀")).toBe(true);
    expect(await wasm.verify(phc, "from node")).toBe(false);
  });

  it("a wasm hash verifies under Node", async () => {
    const phc = await wasm.hash("from wasm 🚀");
    expect(await node.verify(phc, "from wasm 🚀")).toBe(true);
    expect(await node.verify(phc, "from wasm")).toBe(false);
  });
});

describe("accepted hashes", () => {
  it("only argon2id within the verify limits is run, on both runtimes", async () => {
    // A genuine argon2i hash of the same password: valid PHC, but not our algorithm.
    const argon2i = await nodeRsHash("pw123456", { algorithm: 1 as Algorithm.Argon2i });
    expect(argon2i.startsWith("$argon2i$")).toBe(true);
    expect(await node.verify(argon2i, "pw123456")).toBe(false);
    expect(await wasm.verify(argon2i, "pw123456")).toBe(false);
  });

  it("parseArgon2idPhc bounds the parameters a stored string may ask for", async () => {
    const phc = await node.hash("pw123456");
    expect(parseArgon2idPhc(phc)).toMatchObject({
      memorySize: 19456,
      iterations: 2,
      parallelism: 1,
    });
    expect(parseArgon2idPhc(phc.replace("m=19456", "m=65536"))).not.toBeNull();
    expect(parseArgon2idPhc(phc.replace("m=19456", "m=65537"))).toBeNull();
    expect(parseArgon2idPhc(phc.replace("m=19456", "m=7"))).toBeNull();
    expect(parseArgon2idPhc(phc.replace("t=2", "t=11"))).toBeNull();
    expect(parseArgon2idPhc(phc.replace("p=1", "p=9"))).toBeNull();
    expect(parseArgon2idPhc(phc.replace("p=1", "p=0"))).toBeNull();
    expect(parseArgon2idPhc(phc.replace(",t=2,p=1", ",p=1,t=2"))).toBeNull();
  });
});

describe("needsRehash", () => {
  it("flags other parameters and garbage", async () => {
    const phc = await node.hash("pw123456");
    expect(needsRehash(phc)).toBe(false);
    expect(needsRehash(phc.replace("t=2", "t=3"))).toBe(true);
    expect(needsRehash("garbage")).toBe(true);
  });
});

/** An inner hasher whose calls finish only when the test says so. */
function gatedHasher() {
  let running = 0;
  let maxRunning = 0;
  const gates: Array<() => void> = [];
  const started: string[] = [];
  const inner: PasswordHasher = {
    async hash(password) {
      started.push(password);
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise<void>((resolve) => gates.push(resolve));
      running--;
      return `hashed:${password}`;
    },
    async verify(phc, password) {
      return phc === `hashed:${password}`;
    },
  };
  return {
    inner,
    started,
    get maxRunning() {
      return maxRunning;
    },
    async openNext() {
      // Let queued continuations reach the gate before opening it.
      for (let i = 0; i < 20 && gates.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      const gate = gates.shift();
      if (!gate) throw new Error("no hash is waiting at the gate");
      gate();
    },
  };
}

describe("boundedHasher", () => {
  it("with concurrency 1 and maxQueue 1, a third simultaneous call is refused", async () => {
    const bounded = boundedHasher(node, { concurrency: 1, maxQueue: 1 });
    const first = bounded.hash("one-password");
    const second = bounded.hash("two-password");
    const third = bounded.hash("three-password");
    await expect(third).rejects.toBeInstanceOf(HasherBusyError);
    const [h1, h2] = await Promise.all([first, second]);
    expect(h1).toMatch(PHC_EXACT);
    expect(h2).toMatch(PHC_EXACT);
    // The queue drained: later calls succeed.
    const h4 = await bounded.hash("four-password");
    expect(await bounded.verify(h4, "four-password")).toBe(true);
    expect(await bounded.verify(h1, "one-password")).toBe(true);
  });

  it("runs at most `concurrency` at once, queues in order, and refuses only past maxQueue", async () => {
    const gated = gatedHasher();
    const bounded = boundedHasher(gated.inner, { concurrency: 2, maxQueue: 2 });
    const calls = ["a", "b", "c", "d"].map((p) => bounded.hash(p));
    const refusedAt = Date.now();
    await expect(bounded.hash("e")).rejects.toBeInstanceOf(HasherBusyError);
    expect(Date.now() - refusedAt).toBeLessThan(50); // immediate, not after a wait
    await expect(bounded.verify("x", "y")).rejects.toBeInstanceOf(HasherBusyError);
    expect(gated.started).toEqual(["a", "b"]);

    await gated.openNext(); // a finishes, c takes its slot
    expect(await calls[0]).toBe("hashed:a");
    await gated.openNext();
    await gated.openNext();
    await gated.openNext();
    expect(await Promise.all(calls)).toEqual(["hashed:a", "hashed:b", "hashed:c", "hashed:d"]);
    expect(gated.started).toEqual(["a", "b", "c", "d"]);
    expect(gated.maxRunning).toBe(2);

    // Drained: new calls are accepted again.
    const later = bounded.hash("f");
    await gated.openNext();
    expect(await later).toBe("hashed:f");
  });

  it("gives up on a waiter after maxWaitMs and keeps serving", async () => {
    const gated = gatedHasher();
    const bounded = boundedHasher(gated.inner, { concurrency: 1, maxQueue: 1, maxWaitMs: 50 });
    const first = bounded.hash("a");
    const t0 = Date.now();
    await expect(bounded.hash("b")).rejects.toBeInstanceOf(HasherBusyError);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(40);
    expect(gated.started).toEqual(["a"]); // the timed-out waiter never ran
    const third = bounded.hash("c"); // its queue place is free again
    await gated.openNext();
    await gated.openNext();
    expect([await first, await third]).toEqual(["hashed:a", "hashed:c"]);
  });

  it("releases the slot when the inner hasher fails", async () => {
    let fail = true;
    const flaky: PasswordHasher = {
      async hash(password) {
        if (fail) throw new Error("boom");
        return `ok:${password}`;
      },
      async verify() {
        return false;
      },
    };
    const bounded = boundedHasher(flaky, { concurrency: 1, maxQueue: 0 });
    await expect(bounded.hash("x")).rejects.toThrow("boom");
    fail = false;
    expect(await bounded.hash("y")).toBe("ok:y");
  });

  it("rejects nonsensical limits", () => {
    expect(() => boundedHasher(node, { concurrency: 0, maxQueue: 1 })).toThrow(RangeError);
    expect(() => boundedHasher(node, { concurrency: 1, maxQueue: -1 })).toThrow(RangeError);
    expect(() => boundedHasher(node, { concurrency: 1, maxQueue: 1, maxWaitMs: 0 })).toThrow(
      RangeError,
    );
  });
});
