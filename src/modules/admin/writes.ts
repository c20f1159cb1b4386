import { type SQL, sql } from "drizzle-orm";
import type { Context } from "hono";
import { pgErrorCode } from "../../db/client";
import type { AppEnv } from "../../http/env";
import { conflict } from "../../http/errors";
import { requestIp } from "../../http/limits";
import { encryptSecret } from "../../lib/crypto";

/** The admin making a change, for the audit row. */
export interface Actor {
  id: string;
  ip: string | null;
}

/**
 * The audit row of an admin write, as a CTE over the write's `w` (which returns `id`): one
 * usage_logs row `admin.<resource>.<action>` with `{id, fields}` (names only, never values),
 * written in the same statement, so a change is never without its audit row or vice versa.
 */
export const auditCte = (actor: Actor, event: string, fields: string[]) =>
  sql`audit as (
    insert into usage_logs (user_id, event, ip, metadata)
    select ${actor.id}::uuid, ${event}, ${actor.ip},
      jsonb_build_object('id', w.id, 'fields', ${JSON.stringify(fields)}::jsonb)
    from w)`;

/** The fields a request body names, for the audit row. */
export const changedFields = (body: object) => Object.keys(body).sort();

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

/** The calling admin (after requireAdmin) as the actor of a write. */
export const actorOf = (c: Context<AppEnv>): Actor => ({
  id: c.get("auth").userId,
  ip: requestIp(c),
});

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
