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

/** Who made an admin write, for its audit row. */
export interface Actor {
  /** Null for an operator's command-line change (`npm run admin:grant`). */
  id: string | null;
  ip: string | null;
  requestId: string | null;
}

/** The calling admin (after requireAdmin) as the actor of a write. */
export const actorOf = (c: Context<AppEnv>): Actor & { id: string } => ({
  id: c.get("auth").userId,
  ip: requestIp(c),
  requestId: c.get("requestId") ?? null,
});

/** How an audit row shows a write-only secret: whether one is stored, never its value. */
export type SecretState = "set" | "unset" | "replaced";

/** A PATCH's `api_key` as the audit row shows it: absent = untouched. */
export const secretAfter = (value: string | null | undefined): SecretState | undefined =>
  value === undefined ? undefined : value === null ? "unset" : "replaced";

export interface AuditedWrite {
  /** `<resource>.<verb>`, e.g. `credit_plan.update`. */
  action: string;
  /** The kind of resource written, e.g. `credit_plan`; `target_type` of the row. */
  target: string;
  /** The written rows, one audit row each: a CTE of the same statement (read as `r`). */
  rows: SQL;
  /**
   * Which sides `r` carries: a created row (`returning *`), an updated one (`returning t.*,
   * audit_old.audit_before` over `lockBefore`) or a deleted one (`returning *`). `custom`
   * takes `before` and `after` as given.
   */
  kind: "create" | "update" | "delete" | "custom";
  /** The fields the request set; the row keeps those whose value changed, before and after. */
  fields: readonly string[];
  /** Each side as jsonb over `r` (for `custom`; the kind gives the defaults). */
  before?: SQL;
  after?: SQL;
  /** The target's id over `r`; `r.id` by default. */
  targetId?: SQL;
  /**
   * Write-only fields, e.g. `{api_key: {column: "api_key_ciphertext", after: "replaced"}}`: each
   * side is "set" or "unset" from the stored column (or `after` as the write states it), never
   * the value or its ciphertext.
   */
  secrets?: Record<string, { column: string; after?: SecretState }>;
}

const NO_ROW = sql`null::jsonb`;
const SIDES: Record<AuditedWrite["kind"], { before: SQL; after: SQL }> = {
  create: { before: NO_ROW, after: sql`to_jsonb(r)` },
  update: { before: sql`r.audit_before`, after: sql`to_jsonb(r)` },
  delete: { before: sql`to_jsonb(r)`, after: NO_ROW },
  custom: { before: NO_ROW, after: NO_ROW },
};

const secretState = (side: SQL, column: string) =>
  sql`case when ${side} is null then 'null'::jsonb
    when ${side} ->> ${column} is null then '"unset"'::jsonb else '"set"'::jsonb end`;

/** One side's value of field `k.name`, secrets shown as their state. */
function sideValue(side: SQL, write: AuditedWrite, which: "before" | "after"): SQL {
  const plain = sql`coalesce(${side} -> k.name, 'null'::jsonb)`;
  const secrets = Object.entries(write.secrets ?? {});
  if (secrets.length === 0) return plain;
  const cases = secrets.map(([field, { column, after }]) => {
    const stated = which === "after" && after !== undefined;
    return sql`when ${field} then ${stated ? sql`to_jsonb(${after}::text)` : secretState(side, column)}`;
  });
  return sql`case k.name ${sql.join(cases, sql` `)} else ${plain} end`;
}

/**
 * The audit row of an admin write, as a CTE `audit` of the write's own statement, so a change
 * is never without its row or a row without its change. `changes` is `{field: {before, after}}`
 * for the request's fields whose value the write changed.
 */
export function auditCte(actor: Actor, write: AuditedWrite): SQL {
  const defaults = SIDES[write.kind];
  const before = write.before ?? defaults.before;
  const after = write.after ?? defaults.after;
  const changes = sql`(
    select coalesce(jsonb_object_agg(f.name, jsonb_build_object('before', f.b, 'after', f.a)),
      '{}'::jsonb)
    from (select k.name, ${sideValue(before, write, "before")} as b,
            ${sideValue(after, write, "after")} as a
          from jsonb_array_elements_text(${JSON.stringify(write.fields)}::jsonb) as k(name)) f
    where f.b is distinct from f.a)`;
  return sql`audit as (
    insert into admin_audit_log (actor_id, action, target_type, target_id, changes, request_id, ip)
    select ${actor.id}::uuid, ${write.action}, ${write.target},
      (${write.targetId ?? sql`r.id`})::text, ${changes}, ${actor.requestId}, ${actor.ip}
    from ${write.rows} r)`;
}

/**
 * For an UPDATE that is audited: `from` locks the target row and reads it as it is before this
 * update (as jsonb `audit_old.audit_before`), `where` joins it to the row updated. Locking
 * first reads the version the update replaces even when another write committed after this
 * statement's snapshot was taken.
 */
export function lockBefore(table: string, id: string, alias = table) {
  return {
    from: sql`(select to_jsonb(o) as audit_before, o.id as audit_key
      from ${sql.identifier(table)} o where o.id = ${id} for update) audit_old`,
    where: sql`${sql.identifier(alias)}.id = audit_old.audit_key`,
  };
}

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

/** A PATCH's `api_key` as SET items: null clears the key, a string replaces it, absent keeps it. */
export async function apiKeySets(
  encryption: CryptoKey,
  apiKey: string | null | undefined,
): Promise<SQL[]> {
  if (apiKey === undefined) return [];
  const { ciphertext, hint } = await sealedKey(encryption, apiKey);
  return [sql`api_key_ciphertext = ${ciphertext}, api_key_hint = ${hint}`];
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
