import { type Algorithm, hash, verify } from "@node-rs/argon2";
import { ARGON2_PARAMS, type PasswordHasher, parseArgon2idPhc } from "../../lib/password";

// `Algorithm` is an ambient const enum, which verbatimModuleSyntax forbids reading as a value;
// 2 is its Argon2id member (the tests check the resulting strings say argon2id).
const ARGON2ID = 2 as Algorithm.Argon2id;

/**
 * argon2id through @node-rs/argon2 (native, runs on libuv's thread pool so it does not block the
 * event loop). Produces the same PHC strings as createWasmPasswordHasher and verifies its hashes.
 */
export function createNodePasswordHasher(): PasswordHasher {
  return {
    hash(password) {
      return hash(password, {
        algorithm: ARGON2ID,
        memoryCost: ARGON2_PARAMS.memorySize,
        timeCost: ARGON2_PARAMS.iterations,
        parallelism: ARGON2_PARAMS.parallelism,
        outputLen: ARGON2_PARAMS.hashLength,
      });
    },
    async verify(phcHash, password) {
      // Same acceptance rules as the wasm hasher: argon2id v=19 within bounded parameters only.
      if (!parseArgon2idPhc(phcHash) || typeof password !== "string") return false;
      try {
        return await verify(phcHash, password);
      } catch {
        return false;
      }
    },
  };
}
