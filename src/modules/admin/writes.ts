import { type SQL, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { Config } from "../../config";
import { pgErrorCode } from "../../db/client";
import type { AppEnv } from "../../http/env";
import { conflict, validationError } from "../../http/errors";
import { requestIp } from "../../http/limits";
import { encryptSecret } from "../../lib/crypto";
import { checkOutboundUrl, outboundPolicy } from "../../lib/outbound";
import { SsrfBlockedError, type SsrfReason } from "../../lib/ssrf";
import type { Actor, SecretState } from "./queries/audit";

// The audit fragment (auditCte, lockBefore) lives with the admin_audit_log queries.
export type { Actor, SecretState } from "./queries/audit";

/** The calling admin (after requireAdmin) as the actor of a write. */
export const actorOf = (c: Context<AppEnv>): Actor & { id: string } => ({
  id: c.get("auth").userId,
  ip: requestIp(c),
  requestId: c.get("requestId") ?? null,
  clientRequestId: c.get("clientRequestId") ?? null,
});

/** A PATCH's `api_key` as the audit row shows it: absent = untouched. */
export const secretAfter = (value: string | null | undefined): SecretState | undefined =>
  value === undefined ? undefined : value === null ? "unset" : "replaced";

/** The fields a request body names, for the audit row. */
export const changedFields = (body: object) =>
  Object.entries(body)
    .filter(([, value]) => value !== undefined)
    .map(([key]) => key)
    .sort();

/** A unique violation (23505) becomes 409 `detail`; anything else is rethrown. */
export function rethrowUnique(detail: string) {
  return (error: unknown): never => {
    if (pgErrorCode(error) === "23505") throw conflict(detail);
    throw error;
  };
}

/** `column = value` for each listed column the patch sets (undefined = leave as is). */
export const patchSets = (columns: readonly string[], patch: Record<string, unknown>): SQL[] =>
  columns.filter((k) => patch[k] !== undefined).map((k) => sql`${sql.identifier(k)} = ${patch[k]}`);

/** What the admin sees of a stored secret: its last 4 characters. */
const secretHint = (key: string) => key.slice(-4);

/** A write-only key as stored: its ciphertext and hint (both null without a key). */
export async function sealedKey(encryption: CryptoKey, apiKey: string | null | undefined) {
  if (!apiKey) return { ciphertext: null, hint: null };
  return { ciphertext: await encryptSecret(encryption, apiKey), hint: secretHint(apiKey) };
}

const PRIVATE_REASONS: readonly SsrfReason[] = [
  "private_address",
  "reserved_name",
  "single_label",
  "trailing_dot",
];

/**
 * An admin-set provider URL under the outbound policy (lib/outbound.ts), judged at write time
 * so the admin hears why now rather than a 503 at the first call: a 422 naming the field.
 */
export function assertOutboundUrl(
  config: Pick<Config, "APP_ENV" | "OUTBOUND_ALLOW_HOSTS">,
  url: string | undefined,
  field = "base_url",
): void {
  if (url === undefined) return;
  try {
    checkOutboundUrl(url, outboundPolicy(config));
  } catch (error) {
    if (!(error instanceof SsrfBlockedError)) throw error;
    const msg =
      error.reason === "insecure_scheme"
        ? "Must be an https URL in production"
        : PRIVATE_REASONS.includes(error.reason)
          ? "A private, loopback or link-local host; the operator can allow it in OUTBOUND_ALLOW_HOSTS"
          : "This URL is not allowed";
    throw validationError([{ loc: ["body", field], msg, type: "outbound_url" }]);
  }
}

/** The api_key PATCH rule: a new base_url without the key again is refused. */
export const KEY_REBIND_ISSUE = {
  loc: ["body", "api_key"],
  msg: "Changing base_url needs api_key in the same request, so a stored key never goes to a new host",
  type: "key_rebind",
};
