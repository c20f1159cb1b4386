import { type SQL, sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import { selectPage } from "../../db/page";
import type { Deps } from "../../deps";
import { notFound, validationError } from "../../http/errors";
import { iso } from "../../lib/clock";
import { escapeLike } from "../../lib/sql-text";
import { isSystemConfigKey } from "../system-config/defaults";
import { SYSTEM_CONFIG_SCHEMAS } from "../system-config/schemas";
import { toUserResponse, type UserRow } from "../users/service";
import { type Actor, auditCte, changedFields, lockBefore } from "./writes";

type AdminUserRow = UserRow & {
  last_login_at: Date | null;
  referred_by: string | null;
};

function toAdminUser(deps: Deps, row: AdminUserRow) {
  const base = toUserResponse(deps, { ...row, is_guest: false });
  return {
    ...(base as Exclude<typeof base, { is_guest: true }>),
    is_guest: row.is_guest,
    email: row.email,
    last_login_at: iso(row.last_login_at),
    referred_by: row.referred_by,
  };
}

export async function listUsers(
  deps: Deps,
  query: {
    page: number;
    size: number;
    q?: string;
    role?: string;
    status?: string;
    is_guest?: boolean;
  },
) {
  const filters: SQL[] = [sql`true`];
  if (query.q) {
    const pattern = `%${escapeLike(query.q.toLowerCase())}%`;
    filters.push(sql`(u.email like ${pattern} or lower(u.name) like ${pattern})`);
  }
  if (query.role) filters.push(sql`u.role = ${query.role}`);
  if (query.status) filters.push(sql`u.status = ${query.status}`);
  if (query.is_guest !== undefined) filters.push(sql`u.is_guest = ${query.is_guest}`);
  const { rows, total } = await selectPage<AdminUserRow>(deps.db, {
    columns: sql`u.*, c.balance as credits`,
    from: sql`users u left join user_credits c on c.user_id = u.id`,
    where: sql.join(filters, sql` and `),
    order: sql`u.created_at desc, u.id desc`,
    page: query.page,
    size: query.size,
  });
  return {
    items: rows.map((r) => toAdminUser(deps, r)),
    total,
    page: query.page,
    size: query.size,
  };
}

export async function getUser(deps: Deps, id: string) {
  const [row] = await queryRows<AdminUserRow>(
    deps.db,
    sql`select u.*, c.balance as credits from users u
        left join user_credits c on c.user_id = u.id where u.id = ${id}`,
  );
  if (!row) throw notFound("User not found");
  return toAdminUser(deps, row);
}

/**
 * Changes only the fields sent. Disabling an account also revokes its refresh tokens, and the
 * audit row is written, in the same statement.
 */
export async function patchUser(
  deps: Deps,
  actor: Actor,
  id: string,
  patch: { role?: string; status?: string; plan?: string; plan_expires_at?: string | null },
) {
  const sets: SQL[] = [sql`updated_at = ${deps.clock.now().toISOString()}::timestamptz`];
  if (patch.role) sets.push(sql`role = ${patch.role}`);
  if (patch.status) sets.push(sql`status = ${patch.status}`);
  if (patch.plan) sets.push(sql`plan = ${patch.plan}`);
  if (patch.plan_expires_at !== undefined) {
    sets.push(sql`plan_expires_at = ${patch.plan_expires_at}::timestamptz`);
  }
  const old = lockBefore("users", id);
  const [row] = await queryRows<AdminUserRow>(
    deps.db,
    sql`with u as (
        update users set ${sql.join(sets, sql`, `)} from ${old.from} where ${old.where}
        returning users.*, audit_old.audit_before),
      ${auditCte(actor, {
        action: "user.update",
        target: "user",
        rows: sql`u`,
        kind: "update",
        fields: changedFields(patch),
      })},
      revoked as (
        update refresh_tokens set revoked_at = now()
        where user_id in (select id from u where status = 'disabled') and revoked_at is null)
      select u.*, c.balance as credits from u
      left join user_credits c on c.user_id = u.id`,
  );
  if (!row) throw notFound("User not found");
  return toAdminUser(deps, row);
}

export async function listUsageLogs(
  deps: Deps,
  query: {
    page: number;
    size: number;
    user_id?: string;
    event?: string;
    start_date?: string;
    end_date?: string;
  },
) {
  const filters: SQL[] = [sql`true`];
  if (query.user_id) filters.push(sql`l.user_id = ${query.user_id}`);
  if (query.event) filters.push(sql`l.event = ${query.event}`);
  if (query.start_date) {
    filters.push(sql`l.created_at >= (${query.start_date}::date)::timestamp at time zone 'UTC'`);
  }
  if (query.end_date) {
    filters.push(sql`l.created_at < (${query.end_date}::date + 1)::timestamp at time zone 'UTC'`);
  }
  const where = sql.join(filters, sql` and `);
  // The e-mail is read for the page's rows only; the total counts usage_logs alone.
  const { rows, total } = await selectPage<{
    id: string;
    user_id: string | null;
    email: string | null;
    event: string;
    ip: string | null;
    metadata: Record<string, unknown> | null;
    created_at: Date;
  }>(deps.db, {
    columns: sql`l.id, l.user_id, (select u.email from users u where u.id = l.user_id) as email,
      l.event, l.ip, l.metadata, l.created_at`,
    from: sql`usage_logs l`,
    where,
    order: sql`l.created_at desc, l.id desc`,
    page: query.page,
    size: query.size,
  });
  return {
    items: rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() })),
    total,
    page: query.page,
    size: query.size,
  };
}

export async function listSystemConfig(deps: Deps) {
  const rows = await queryRows<{ key: string; value: unknown; updated_at: Date }>(
    deps.db,
    sql`select key, value, updated_at from system_config order by key`,
  );
  return rows.map((r) => ({ ...r, updated_at: new Date(r.updated_at).toISOString() }));
}

export async function getSystemConfig(deps: Deps, key: string) {
  const [row] = await queryRows<{ key: string; value: unknown; updated_at: Date }>(
    deps.db,
    sql`select key, value, updated_at from system_config where key = ${key}`,
  );
  if (!row) throw notFound("Unknown config key");
  return { ...row, updated_at: new Date(row.updated_at).toISOString() };
}

/**
 * Only known keys, each validated against its own schema before it is stored, with the audit
 * row (the value before and after) in the same statement.
 */
export async function putSystemConfig(deps: Deps, actor: Actor, key: string, value: unknown) {
  if (!isSystemConfigKey(key)) throw notFound("Unknown config key");
  const parsed = SYSTEM_CONFIG_SCHEMAS[key].safeParse(value);
  if (!parsed.success) {
    throw validationError(
      parsed.error.issues.map((issue) => ({
        loc: ["body", "value", ...issue.path.map(String)],
        msg: issue.message,
        type: issue.code,
      })),
    );
  }
  const [row] = await queryRows<{ key: string; value: unknown; updated_at: Date }>(
    deps.db,
    sql`with w as (
        insert into system_config (key, value, updated_at, updated_by)
        values (${key}, ${JSON.stringify(parsed.data)}::jsonb, now(), ${actor.id})
        on conflict (key) do update set value = excluded.value,
          updated_at = excluded.updated_at, updated_by = excluded.updated_by
        returning key, value, updated_at),
      ${auditCte(actor, {
        action: "system_config.update",
        target: "system_config",
        // The statement's snapshot: the value this write replaced.
        rows: sql`(select w.key as id, w.value,
          (select value from system_config where key = ${key}) as previous from w)`,
        kind: "custom",
        before: sql`jsonb_build_object('value', r.previous)`,
        after: sql`jsonb_build_object('value', r.value)`,
        fields: ["value"],
      })}
      select key, value, updated_at from w`,
  );
  return { ...row!, updated_at: new Date(row!.updated_at).toISOString() };
}
