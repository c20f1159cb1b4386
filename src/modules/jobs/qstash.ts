import { Client, Receiver } from "@upstash/qstash";
import type { Config } from "../../config";
import { base64urlDecode } from "../../lib/crypto";

/**
 * QStash (Upstash) background jobs: the app publishes a job as a JSON message whose destination
 * is its own `POST /api/v1/jobs/:name`; QStash delivers it (retrying non-2xx answers) with an
 * `Upstash-Signature` JWT that the jobs route verifies. Dev mode and env-var fallbacks of the
 * SDK are off: only src/config.ts settings count.
 */

const JOBS_PATH_PREFIX = "/api/v1/jobs/";
/** Deliveries QStash retries after the first failed one. */
const JOB_RETRIES = 3;

/** Whether jobs are published through QStash (else the caller runs them in-process). */
export const qstashPublishing = (config: Config) =>
  Boolean(config.QSTASH_TOKEN && config.PUBLIC_BASE_URL);

/** The URL a job is delivered to, and signed for: PUBLIC_BASE_URL + the jobs path. */
const jobUrl = (config: Config, name: string) =>
  `${config.PUBLIC_BASE_URL.replace(/\/+$/, "")}${JOBS_PATH_PREFIX}${name}`;

/** Publishes one job; resolves to QStash's message id. Throws when QStash refuses it. */
export async function publishJob(config: Config, name: string, body: unknown): Promise<string> {
  const client = new Client({
    baseUrl: config.QSTASH_URL,
    token: config.QSTASH_TOKEN,
    enableTelemetry: false,
    devMode: false,
    retry: { retries: 2, backoff: (n) => 100 * 2 ** n },
  });
  const response = await client.publishJSON({
    url: jobUrl(config, name),
    body,
    retries: JOB_RETRIES,
  });
  return (response as { messageId: string }).messageId;
}

/** Whether deliveries can be verified (the current signing key is set). */
export const qstashVerifying = (config: Config) => Boolean(config.QSTASH_CURRENT_SIGNING_KEY);

/** The verified delivery: its JWT's id and expiry (each delivery attempt is signed anew). */
export interface VerifiedDelivery {
  jti: string;
  expiresAt: Date;
}

/**
 * Verifies an `Upstash-Signature` for the raw body and the URL QStash delivered to, with the
 * current signing key and then the next one (key rotation). Null on any mismatch, or when the
 * token carries no `jti` (without one a replay could not be told from a delivery).
 */
export async function verifyJobSignature(
  config: Config,
  input: { signature: string | undefined; body: string; url: string },
): Promise<VerifiedDelivery | null> {
  if (!input.signature) return null;
  const receiver = new Receiver({
    currentSigningKey: config.QSTASH_CURRENT_SIGNING_KEY,
    nextSigningKey: config.QSTASH_NEXT_SIGNING_KEY || config.QSTASH_CURRENT_SIGNING_KEY,
    devMode: false,
  });
  try {
    const valid = await receiver.verify({
      signature: input.signature,
      body: input.body,
      url: input.url,
    });
    if (!valid) return null;
  } catch {
    return null;
  }
  // Verified above, so its claims are QStash's: read them without a second verification.
  try {
    const claims = JSON.parse(
      new TextDecoder().decode(base64urlDecode(input.signature.split(".")[1] ?? "")),
    ) as { jti?: unknown; exp?: unknown };
    if (typeof claims.jti !== "string" || !claims.jti || claims.jti.length > 200) return null;
    if (typeof claims.exp !== "number") return null;
    return { jti: claims.jti, expiresAt: new Date(claims.exp * 1000) };
  } catch {
    return null;
  }
}
