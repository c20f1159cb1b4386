import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Config } from "../../config";
import { ConfigError, JUDGED_SECRET_SETTINGS } from "../../config";
import type { Secrets } from "../../deps";
import {
  createSecretEstimator,
  type SecretEstimator,
  weakSecretProblems,
} from "../../lib/secret-strength";

/** 32 random bytes, base64url: 43 characters, estimated at 10^40 guesses or more. */
export const generateSecret = () => randomBytes(32).toString("base64url");
const generate = generateSecret;

/** Built once per process (indexing the word lists takes about a second). */
let dictionaryEstimator: Promise<SecretEstimator> | undefined;

/**
 * The secret settings judged again with zxcvbn's word lists (common passwords, English words,
 * names, Wikipedia titles): about 5 MB of JavaScript that no Worker can carry
 * (lib/secret-strength.ts), so they load here, on Node, only when production starts.
 */
export async function dictionarySecretProblems(config: Config): Promise<string[]> {
  dictionaryEstimator ??= Promise.all([
    import("@zxcvbn-ts/language-common"),
    import("@zxcvbn-ts/language-en"),
  ]).then(([common, en]) => createSecretEstimator({ ...common.dictionary, ...en.dictionary }));
  const estimate = await dictionaryEstimator;
  return weakSecretProblems(
    JUDGED_SECRET_SETTINGS.map((name) => [name, config[name]] as const),
    estimate,
  );
}

/**
 * Secrets come from the environment; on the embedded default any that are missing are
 * generated once and kept in DATA_DIR/secrets.json (mode 600), so sessions survive restarts.
 * Production refuses to invent them: several instances must share one set.
 */
export async function loadNodeSecrets(config: Config): Promise<Secrets> {
  const fromEnv = {
    jwtSecret: config.JWT_SECRET,
    csrfSecret: config.CSRF_SECRET,
    encryptionKey: config.APP_ENCRYPTION_KEY,
    paymentSandboxSecret: config.PAYMENT_SANDBOX_SECRET,
  };
  if (config.APP_ENV === "production") {
    const weak = await dictionarySecretProblems(config);
    if (weak.length > 0) throw new ConfigError(weak);
  }
  // The sandbox's secret is optional there: unset, buildDeps uses a random key per process (the
  // sandbox signs and verifies its callbacks within one request).
  if (fromEnv.jwtSecret && fromEnv.csrfSecret && fromEnv.encryptionKey) return fromEnv as Secrets;
  if (config.APP_ENV === "production") {
    const missing = Object.entries({
      JWT_SECRET: fromEnv.jwtSecret,
      CSRF_SECRET: fromEnv.csrfSecret,
      APP_ENCRYPTION_KEY: fromEnv.encryptionKey,
    })
      .filter(([, value]) => !value)
      .map(([name]) => `${name}: required in production (at least 32 characters)`);
    throw new ConfigError(missing);
  }
  const file = join(config.DATA_DIR, "secrets.json");
  let stored: Partial<Secrets> = {};
  try {
    stored = JSON.parse(await readFile(file, "utf8")) as Partial<Secrets>;
  } catch {
    // First start: nothing stored yet.
  }
  const secrets: Secrets = {
    jwtSecret: fromEnv.jwtSecret ?? stored.jwtSecret ?? generate(),
    csrfSecret: fromEnv.csrfSecret ?? stored.csrfSecret ?? generate(),
    encryptionKey: fromEnv.encryptionKey ?? stored.encryptionKey ?? generate(),
    paymentSandboxSecret: fromEnv.paymentSandboxSecret ?? stored.paymentSandboxSecret ?? generate(),
  };
  if (
    stored.jwtSecret !== secrets.jwtSecret ||
    stored.csrfSecret !== secrets.csrfSecret ||
    stored.encryptionKey !== secrets.encryptionKey ||
    stored.paymentSandboxSecret !== secrets.paymentSandboxSecret
  ) {
    await mkdir(config.DATA_DIR, { recursive: true, mode: 0o700 });
    await writeFile(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return secrets;
}
