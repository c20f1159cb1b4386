import { type SQL, sql } from "drizzle-orm";
import { type Db, queryRows } from "../../../db/client";
import { defineCte } from "../../../db/cte";
import {
  agentPipelines,
  creditConsumptions,
  creditHolds,
  customers,
  discoveryJobs,
  type OrgRole,
  orgInvitations,
  orgMembers,
  orgs,
  subscriptionPlans,
  users,
} from "../../../db/schema";
import { callerOrgSql, callerRoleSql } from "../../../db/scope";
import { agentOrgMove } from "../../agent/queries/org-move";
import { revokeTokensCte } from "../../auth/queries";
import {
  customersOrgMove,
  handedOverCustomers,
  memberLeavesCtes,
} from "../../customers/queries/org-membership";
import { discoveryOrgMove } from "../../discovery/queries/org-move";
import { effectivePlanSql } from "../../entitlements/queries";
import { paymentsOrgMove } from "../../payments/queries/org-move";
import { movedProducts, productsOrgMove } from "../../products/queries/org-move";
import { quotationsOrgMove } from "../../quotations/queries/org-move";

const ts = (value: string) => sql`${value}::timestamptz`;

const isAdminSql = (role: SQL) => sql`coalesce(${role} in ('owner', 'admin'), false)`;

/** The seats of organisation `o` (an alias of orgs) at `now`: its plan in effect's limit, null: unlimited. */
function seatsSql(o: SQL, now: SQL): SQL {
  return sql`(select (p.limits ->> 'seats')::int from ${subscriptionPlans} p
    where p.code = ${effectivePlanSql(sql`${o}.plan`, sql`${o}.plan_expires_at`, now)})`;
}

const memberCountSql = (orgId: SQL) =>
  sql`(select count(*)::int from ${orgMembers} mc where mc.org_id = ${orgId})`;

/** Invitations of organisation `orgId` not yet accepted, revoked or expired at `now`. */
const pendingInvitationsWhere = (i: SQL, orgId: SQL, now: SQL) =>
  sql`${i}.org_id = ${orgId} and ${i}.accepted_at is null and ${i}.revoked_at is null
    and ${i}.expires_at > ${now}`;

export interface OrgRow {
  id: string;
  name: string;
  plan: string;
  seats: number | null;
  member_count: number;
  role: OrgRole;
  settings: unknown;
}

/** The columns of GET /org for organisation alias `o` and the caller's role `role`. */
const orgView = (o: SQL, role: SQL, now: SQL) =>
  sql`${o}.id, ${o}.name, ${effectivePlanSql(sql`${o}.plan`, sql`${o}.plan_expires_at`, now)} as plan,
    ${seatsSql(o, now)} as seats, ${memberCountSql(sql`${o}.id`)} as member_count,
    ${role} as role, ${o}.settings`;

export async function getOrg(db: Db, p: { userId: string; now: string }) {
  const [row] = await queryRows<OrgRow>(
    db,
    sql`select ${orgView(sql`o`, sql`m.role`, ts(p.now))}
      from ${orgMembers} m join ${orgs} o on o.id = m.org_id
      where m.user_id = ${p.userId}::uuid`,
  );
  return row;
}

/**
 * Name and settings in one statement, only for an admin+: `settings` merges one level deep
 * into the stored JSON (a patch of `pool.max_claims_per_day` keeps the other pool rules).
 * `updated` false with a role: refused by role.
 */
export async function patchOrg(
  db: Db,
  p: { userId: string; name?: string; settings?: Record<string, unknown>; now: string },
) {
  const now = ts(p.now);
  const patch = p.settings === undefined ? null : JSON.stringify(p.settings);
  const [row] = await queryRows<OrgRow & { updated: boolean }>(
    db,
    sql`with caller as (
        select m.org_id, m.role from ${orgMembers} m where m.user_id = ${p.userId}::uuid
      ),
      updated as (
        update ${orgs} o set name = coalesce(${p.name ?? null}, o.name),
          settings = case when ${patch}::jsonb is null then o.settings else o.settings || (
            select coalesce(jsonb_object_agg(e.key, case when jsonb_typeof(e.value) = 'object'
                and jsonb_typeof(o.settings -> e.key) = 'object'
              then (o.settings -> e.key) || e.value else e.value end), '{}'::jsonb)
            from jsonb_each(${patch}::jsonb) e) end,
          updated_at = ${now}
        from caller where o.id = caller.org_id and ${isAdminSql(sql`caller.role`)}
        returning o.*
      )
      select ${orgView(sql`u`, sql`caller.role`, now)}, true as updated from updated u, caller
      union all
      select null, null, null, null, null, caller.role, null, false from caller
        where not exists (select 1 from updated)`,
  );
  return row;
}

export interface MemberRow {
  user_id: string;
  email: string;
  name: string | null;
  role: OrgRole;
  joined_at: string | Date;
  customer_count: number;
  credits_used_month: number;
  monthly_credit_limit: number | null;
}

/**
 * A member's columns for membership rows `m` (org_id, user_id, role, joined_at,
 * monthly_credit_limit) joined to users `u`: each figure a subquery on an index (customers by
 * org and holder, consumptions by user and time). The month's credits are the figure the
 * monthly limit enforces (member_credits_used_month, migration 0026: this organisation's
 * consumptions of the UTC month, less what was refunded of them).
 */
const memberColumns = (now: SQL) =>
  sql`m.user_id, u.email, u.name, m.role, m.joined_at, m.monthly_credit_limit,
    (select count(*)::int from ${customers} c
      where c.org_id = m.org_id and c.user_id = m.user_id) as customer_count,
    member_credits_used_month(m.user_id, m.org_id, ${now}) as credits_used_month`;

/** The members of the caller's organisation with their figures, owner first. */
export function listMembers(db: Db, p: { userId: string; now: string }) {
  return queryRows<MemberRow>(
    db,
    sql`select ${memberColumns(ts(p.now))}
      from ${orgMembers} m join ${users} u on u.id = m.user_id
      where m.org_id = ${callerOrgSql(p.userId)}
      order by array_position(array['owner', 'admin', 'manager', 'member'], m.role::text),
        m.joined_at, m.user_id`,
  );
}

/** What a member PATCH found: the caller's role, the target's (null: not in the caller's org). */
export interface MemberPatchOutcome {
  caller_role: OrgRole | null;
  target_role: OrgRole | null;
  /** The changed member as the list shows them; null when refused. */
  member: MemberRow | null;
}

/**
 * A member's role or monthly limit, in one statement whose WHERE repeats every rule on the
 * row it changes (a concurrent transfer cannot slip an owner in between): caller admin+, the
 * target not the owner, an admin changed only by the owner.
 */
export async function patchMember(
  db: Db,
  p: {
    userId: string;
    targetId: string;
    role?: OrgRole;
    setLimit: boolean;
    limit: number | null;
    now: string;
  },
) {
  const [row] = await queryRows<MemberPatchOutcome>(
    db,
    sql`with caller as (
        select m.org_id, m.role from ${orgMembers} m where m.user_id = ${p.userId}::uuid
      ),
      target as (
        select t.user_id, t.role from ${orgMembers} t, caller
        where t.user_id = ${p.targetId}::uuid and t.org_id = caller.org_id
      ),
      updated as (
        update ${orgMembers} t set role = coalesce(${p.role ?? null}, t.role),
          monthly_credit_limit = case when ${p.setLimit} then ${p.limit}::int
            else t.monthly_credit_limit end
        from caller
        where t.user_id = ${p.targetId}::uuid and t.org_id = caller.org_id
          and ${isAdminSql(sql`caller.role`)} and t.role <> 'owner'
          and (t.role <> 'admin' or caller.role = 'owner')
        returning t.*
      )
      select caller.role as caller_role, (select role from target) as target_role,
        (select row_to_json(changed) from (
          select ${memberColumns(ts(p.now))}
          from updated m join ${users} u on u.id = m.user_id) changed) as member
      from caller`,
  );
  return row;
}

interface LockedMember {
  user_id: string;
  org_id: string;
  role: OrgRole;
}

/**
 * Locks the membership rows of `userIds` (in key order, so two transfers or removals touching
 * the same rows wait for each other instead of deadlocking). In a transaction only.
 */
export async function lockMembers(tx: Db, userIds: string[]) {
  const rows = await queryRows<LockedMember>(
    tx,
    sql`select m.user_id, m.org_id, m.role from ${orgMembers} m
      where m.user_id in (${sql.join(
        userIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
      order by m.user_id for update`,
  );
  return new Map(rows.map((r) => [r.user_id, r]));
}

/**
 * Ownership changes hands: the old owner is demoted first (one owner per org, checked per row).
 * The new owner drops any monthly limit: nobody may change the owner's row afterwards.
 */
export async function swapOwner(tx: Db, p: { orgId: string; from: string; to: string }) {
  await tx.execute(sql`update ${orgMembers} set role = 'admin'
    where user_id = ${p.from}::uuid and org_id = ${p.orgId}::uuid and role = 'owner'`);
  await tx.execute(sql`update ${orgMembers} set role = 'owner', monthly_credit_limit = null
    where user_id = ${p.to}::uuid and org_id = ${p.orgId}::uuid`);
}

/** detachMember's revocation of the leaving member's sessions. */
const endedSessions = defineCte("ended", ["family_id"]);

/**
 * A member leaves organisation `orgId` (removed or by themselves), in one statement: the
 * customers they hold go to `toUserId` (null: the pool) with one `member_removed` event each;
 * every other record stays in the organisation; they become the owner of a new personal
 * organisation on the free plan (no sign-up grant; its id is the account's when free, as a
 * new account's is) and every session of theirs ends (the
 * refresh tokens' revocation feeds session_revocations, migration 0013). Returns the ended
 * sessions so this instance refuses them at once.
 */
export async function detachMember(
  tx: Db,
  p: {
    orgId: string;
    userId: string;
    toUserId: string | null;
    actorId: string;
    reason: string;
    newOrgId: string;
    now: string;
  },
) {
  const now = ts(p.now);
  const [row] = await queryRows<{
    new_org_id: string;
    customers_moved: number;
    sessions: string[] | null;
  }>(
    tx,
    sql`with ${memberLeavesCtes({
      orgId: p.orgId,
      userId: p.userId,
      toUserId: p.toUserId,
      actorId: p.actorId,
      reason: p.reason,
      at: now,
    })},
      fresh as (
        insert into ${orgs} (id, name, plan, created_at, updated_at)
        select case when exists (select 1 from ${orgs} taken where taken.id = u.id)
            then ${p.newOrgId}::uuid else u.id end,
          coalesce(nullif(btrim(u.company), ''), nullif(btrim(u.name), ''),
            nullif(split_part(u.email, '@', 1), ''), 'My company'),
          'free', ${now}, ${now}
        from ${users} u where u.id = ${p.userId}::uuid
        returning id
      ),
      membership as (
        update ${orgMembers} m set org_id = fresh.id, role = 'owner', monthly_credit_limit = null,
          joined_at = ${now}
        from fresh where m.user_id = ${p.userId}::uuid
        returning m.user_id
      ),
      ${revokeTokensCte(endedSessions, sql`(${p.userId}::uuid)`, now)}
      select (select id from fresh) as new_org_id,
        (select count(*)::int from ${handedOverCustomers}) as customers_moved,
        (select array_agg(distinct ${endedSessions.col("family_id")}) from ${endedSessions}) as sessions,
        (select count(*)::int from membership) as moved_members`,
  );
  return {
    newOrgId: row!.new_org_id,
    customersMoved: row!.customers_moved,
    sessions: row!.sessions ?? [],
  };
}

export interface InvitationRow {
  id: string;
  email: string;
  role: Exclude<OrgRole, "owner">;
  invited_by: string | null;
  expires_at: string | Date;
  created_at: string | Date;
}

/** What an invitation insert found; `invitation` null when refused for one of the reasons. */
export interface InvitationOutcome {
  caller_role: OrgRole;
  org_name: string;
  seats: number | null;
  seats_taken: number;
  already_member: boolean;
  already_invited: boolean;
  invitation: InvitationRow | null;
}

/**
 * An invitation, in one statement, only when the caller is admin+, the address is neither a
 * member nor invited, and members plus pending invitations leave a seat. Racing invitations
 * may pass the seats together; accepting re-checks them under the organisation's row lock.
 */
export async function insertInvitation(
  db: Db,
  p: {
    userId: string;
    email: string;
    role: string;
    tokenHash: string;
    expiresAt: string;
    now: string;
  },
) {
  const now = ts(p.now);
  const [row] = await queryRows<InvitationOutcome>(
    db,
    sql`with caller as (
        select m.org_id, m.role, o.name as org_name, ${seatsSql(sql`o`, now)} as seats,
          ${memberCountSql(sql`m.org_id`)} + (select count(*)::int from ${orgInvitations} pi
            where ${pendingInvitationsWhere(sql`pi`, sql`m.org_id`, now)}) as seats_taken,
          exists (select 1 from ${orgMembers} om join ${users} u on u.id = om.user_id
            where om.org_id = m.org_id and lower(u.email) = ${p.email}) as already_member,
          exists (select 1 from ${orgInvitations} pi
            where ${pendingInvitationsWhere(sql`pi`, sql`m.org_id`, now)}
              and pi.email = ${p.email}) as already_invited
        from ${orgMembers} m join ${orgs} o on o.id = m.org_id
        where m.user_id = ${p.userId}::uuid
      ),
      inserted as (
        insert into ${orgInvitations} (org_id, email, role, token_hash, invited_by, expires_at, created_at)
        select caller.org_id, ${p.email}, ${p.role}, ${p.tokenHash}, ${p.userId}::uuid,
          ${ts(p.expiresAt)}, ${now}
        from caller
        where ${isAdminSql(sql`caller.role`)} and not caller.already_member
          and not caller.already_invited
          and (caller.seats is null or caller.seats_taken < caller.seats)
        returning id, email, role, invited_by, expires_at, created_at
      )
      select caller.role as caller_role, caller.org_name, caller.seats, caller.seats_taken,
        caller.already_member, caller.already_invited,
        (select row_to_json(inserted) from inserted) as invitation
      from caller`,
  );
  return row;
}

/** The pending invitations of the caller's organisation, when the caller is admin+. */
export async function listInvitations(db: Db, p: { userId: string; now: string }) {
  const now = ts(p.now);
  const [row] = await queryRows<{ caller_role: OrgRole; items: InvitationRow[] }>(
    db,
    sql`select m.role as caller_role, coalesce((
        select json_agg(json_build_object('id', i.id, 'email', i.email, 'role', i.role,
          'invited_by', i.invited_by, 'expires_at', i.expires_at, 'created_at', i.created_at)
          order by i.created_at desc, i.id)
        from ${orgInvitations} i
        where ${pendingInvitationsWhere(sql`i`, sql`m.org_id`, now)}
      ), '[]'::json) as items
      from ${orgMembers} m where m.user_id = ${p.userId}::uuid`,
  );
  return row;
}

/** Revokes an invitation of the caller's organisation (a second revoke changes nothing). */
export async function revokeInvitation(db: Db, p: { userId: string; id: string; now: string }) {
  const [row] = await queryRows<{
    caller_role: OrgRole;
    found: boolean;
    accepted: boolean;
  }>(
    db,
    sql`with caller as (
        select m.org_id, m.role from ${orgMembers} m where m.user_id = ${p.userId}::uuid
      ),
      revoked as (
        update ${orgInvitations} i set revoked_at = ${ts(p.now)} from caller
        where i.id = ${p.id}::uuid and i.org_id = caller.org_id and ${isAdminSql(sql`caller.role`)}
          and i.accepted_at is null and i.revoked_at is null
        returning i.id
      )
      select caller.role as caller_role, i.id is not null as found,
        coalesce(i.accepted_at is not null, false) as accepted
      from caller left join ${orgInvitations} i
        on i.id = ${p.id}::uuid and i.org_id = caller.org_id`,
  );
  return row;
}

export interface LockedInvitation {
  id: string;
  org_id: string;
  email: string;
  role: Exclude<OrgRole, "owner">;
  expired: boolean;
  accepted: boolean;
  revoked: boolean;
}

/**
 * The invitation of a token, its row and its organisation's row locked: two accepts of one
 * token, or two accepts into one organisation, run one after the other (the second sees the
 * first's result: a used token, a seat taken). In a transaction only.
 */
export async function lockInvitation(tx: Db, p: { tokenHash: string; now: string }) {
  const [row] = await queryRows<LockedInvitation>(
    tx,
    sql`select i.id, i.org_id, i.email, i.role, i.expires_at <= ${ts(p.now)} as expired,
        i.accepted_at is not null as accepted, i.revoked_at is not null as revoked
      from ${orgInvitations} i join ${orgs} o on o.id = i.org_id
      where i.token_hash = ${p.tokenHash}
      for update of i, o`,
  );
  return row;
}

/**
 * Whether organisation `orgId` has work charged to its wallet that has not ended (an agent run
 * or a discovery job queued or running, a held charge): when it fails or is cancelled, its
 * refund goes to the wallet it was charged to (ADR 0098).
 */
const chargesInFlightSql = (orgId: SQL) =>
  sql`(exists (select 1 from ${agentPipelines} ap
      where ap.org_id = ${orgId} and ap.status in ('queued', 'running'))
    or exists (select 1 from ${discoveryJobs} dj
      where dj.org_id = ${orgId} and dj.status in ('queued', 'running'))
    or exists (select 1 from ${creditHolds} h
      join ${creditConsumptions} hc on hc.id = h.consumption_id where hc.org_id = ${orgId}))`;

/**
 * The accepting caller and the inviting organisation's seats and members, read after the
 * locks. The caller's current organisation's row is locked too, so an accept into it waits
 * for this one (or this one for it) and acceptInvitation sees who joined.
 */
export async function acceptanceFacts(tx: Db, p: { userId: string; orgId: string; now: string }) {
  const now = ts(p.now);
  const [row] = await queryRows<{
    email: string;
    verified: boolean;
    current_org_id: string;
    current_members: number;
    charges_in_flight: boolean;
    seats: number | null;
    members: number;
  }>(
    tx,
    sql`select lower(u.email) as email, u.email_verified_at is not null as verified,
        m.org_id as current_org_id, ${memberCountSql(sql`m.org_id`)} as current_members,
        ${chargesInFlightSql(sql`m.org_id`)} as charges_in_flight,
        ${seatsSql(sql`o`, now)} as seats, ${memberCountSql(sql`o.id`)} as members
      from ${users} u join ${orgMembers} m on m.user_id = u.id
        join ${orgs} cur on cur.id = m.org_id, ${orgs} o
      where u.id = ${p.userId}::uuid and o.id = ${p.orgId}::uuid
      for update of m, cur`,
  );
  return row;
}

/**
 * Accepts an invitation in one statement: the token used, the caller's membership moved with
 * the invited role (limit none) and, with `bringData`, every record of the old organisation
 * moved into the new one (the caller keeps holding what they held; products whose SKU the new
 * catalogue already has lose the SKU, the product itself is kept).
 */
export async function acceptInvitation(
  tx: Db,
  p: {
    invitationId: string;
    userId: string;
    fromOrgId: string;
    toOrgId: string;
    role: string;
    bringData: boolean;
    now: string;
  },
) {
  const now = ts(p.now);
  const from = sql`${p.fromOrgId}::uuid`;
  const to = sql`${p.toOrgId}::uuid`;
  const used = sql`exists (select 1 from used)`;
  // Read again here, after acceptanceFacts locked the old organisation's row: an accept into it
  // that committed meanwhile is seen, and the caller does not leave it without an owner.
  const othersInOldOrg = sql`exists (select 1 from ${orgMembers} om
    where om.org_id = ${from} and om.user_id <> ${p.userId}::uuid)`;
  // Each owner's rows move in its own fragment; products report the SKUs they lost.
  const moves: SQL[] = p.bringData
    ? [
        customersOrgMove(from, to, used),
        quotationsOrgMove(from, to, used),
        discoveryOrgMove(from, to, used),
        agentOrgMove(from, to, used),
        productsOrgMove(from, to, used),
        paymentsOrgMove(from, to, used),
      ]
    : [movedProducts.as(sql`select false as lost_sku where false`)];
  const [row] = await queryRows<{
    accepted: boolean;
    others_in_old_org: boolean;
    products_without_sku: number;
  }>(
    tx,
    sql`with used as (
        update ${orgInvitations} set accepted_at = ${now}, accepted_by = ${p.userId}::uuid
        where id = ${p.invitationId}::uuid and accepted_at is null and revoked_at is null
          and not ${othersInOldOrg}
        returning id
      ),
      joined as (
        update ${orgMembers} set org_id = ${to}, role = ${p.role}, monthly_credit_limit = null,
          joined_at = ${now}
        where user_id = ${p.userId}::uuid and exists (select 1 from used)
        returning user_id
      ),
      ${sql.join(moves, sql`, `)}
      select exists (select 1 from joined) as accepted, ${othersInOldOrg} as others_in_old_org,
        (select count(*)::int from ${movedProducts} where ${movedProducts.col("lost_sku")})
          as products_without_sku`,
  );
  return row!;
}

/** The caller's role in their organisation (undefined: no membership). */
export async function getRole(db: Db, p: { userId: string }): Promise<OrgRole | undefined> {
  const [row] = await queryRows<{ role: OrgRole | null }>(
    db,
    sql`select ${callerRoleSql(p.userId)} as role`,
  );
  return row?.role ?? undefined;
}
