import { type SQL, sql } from "drizzle-orm";
import { queryRows } from "../../db/client";
import type { CERTIFICATION_STATUSES } from "../../db/schema";
import type { Deps } from "../../deps";
import { conflict, forbidden, notFound } from "../../http/errors";
import { iso } from "../../lib/clock";
import { offsetOf } from "../../lib/pagination";
import { type Actor, auditCte, lockBefore } from "../admin/writes";
import { notificationInsert } from "../notifications/service";

export type CertificationStatus = (typeof CERTIFICATION_STATUSES)[number];

export interface CertificationInput {
  company_name: string;
  license_no: string;
  contact_name: string;
  contact_phone: string;
}

interface CertificationRow extends CertificationInput {
  id: string;
  user_id: string;
  status: CertificationStatus;
  reject_reason: string | null;
  reviewed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = sql`c.id, c.user_id, c.company_name, c.license_no, c.contact_name, c.contact_phone,
  c.status, c.reject_reason, c.reviewed_at, c.created_at, c.updated_at`;

function toCertificationResponse(row: CertificationRow) {
  return {
    id: row.id,
    company_name: row.company_name,
    license_no: row.license_no,
    contact_name: row.contact_name,
    contact_phone: row.contact_phone,
    status: row.status,
    reject_reason: row.reject_reason,
    reviewed_at: iso(row.reviewed_at),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

/**
 * One certification per user, in one statement: a first submission is inserted; one after a
 * rejection replaces the details and goes back to pending; while pending or approved, 409.
 */
export async function submitCertification(deps: Deps, userId: string, input: CertificationInput) {
  const now = deps.clock.now().toISOString();
  const [row] = await queryRows<CertificationRow & { is_guest: boolean | null }>(
    deps.db,
    sql`with caller as (select id, is_guest from users where id = ${userId}),
      saved as (
        insert into certifications as c (user_id, company_name, license_no, contact_name,
                                         contact_phone, status, created_at, updated_at)
        select id, ${input.company_name}, ${input.license_no}, ${input.contact_name},
               ${input.contact_phone}, 'pending', ${now}::timestamptz, ${now}::timestamptz
        from caller where not is_guest
        on conflict (user_id) do update set
          company_name = excluded.company_name, license_no = excluded.license_no,
          contact_name = excluded.contact_name, contact_phone = excluded.contact_phone,
          status = 'pending', reject_reason = null, reviewed_by = null, reviewed_at = null,
          updated_at = excluded.updated_at
        where c.status = 'rejected'
        returning ${COLUMNS})
      select s.*, (select is_guest from caller) as is_guest
      from (select 1) one left join saved s on true`,
  );
  if (row?.is_guest === null || row?.is_guest === undefined) throw notFound("User not found");
  if (row.is_guest) throw forbidden("Register an account to apply for certification");
  if (!row.id) throw conflict("A certification is already pending or approved");
  return toCertificationResponse(row);
}

export async function getCertification(deps: Deps, userId: string) {
  const [row] = await queryRows<CertificationRow>(
    deps.db,
    sql`select ${COLUMNS} from certifications c where c.user_id = ${userId}`,
  );
  if (!row) throw notFound("No certification submitted");
  return toCertificationResponse(row);
}

export async function listCertifications(
  deps: Deps,
  query: { page: number; size: number; status?: CertificationStatus },
) {
  const where: SQL = query.status ? sql`c.status = ${query.status}` : sql`true`;
  const [rows, [count]] = await Promise.all([
    queryRows<CertificationRow & { email: string | null; reviewed_by: string | null }>(
      deps.db,
      sql`select ${COLUMNS}, c.reviewed_by, u.email
          from certifications c join users u on u.id = c.user_id
          where ${where} order by c.updated_at desc, c.id desc
          limit ${query.size} offset ${offsetOf(query.page, query.size)}`,
    ),
    queryRows<{ n: number }>(
      deps.db,
      sql`select count(*)::int as n from certifications c where ${where}`,
    ),
  ]);
  return {
    items: rows.map((r) => ({
      ...toCertificationResponse(r),
      user_id: r.user_id,
      email: r.email,
      reviewed_by: r.reviewed_by,
    })),
    total: count?.n ?? 0,
    page: query.page,
    size: query.size,
  };
}

/**
 * Approves or rejects a pending certification, notifies its owner and writes the audit row, in
 * one statement. Only a pending one can be reviewed (409 otherwise); an unknown id is 404.
 */
export async function reviewCertification(
  deps: Deps,
  actor: Actor,
  input: { id: string; decision: "approved" | "rejected"; reason?: string },
) {
  const now = deps.clock.now().toISOString();
  const approved = input.decision === "approved";
  const title = approved ? "Certification approved" : "Certification rejected";
  const body = approved
    ? "Your business certification was approved."
    : `Your business certification was rejected: ${input.reason ?? ""}`;
  const kind = approved ? "certification_approved" : "certification_rejected";
  const old = lockBefore("certifications", input.id, "c");
  const [row] = await queryRows<CertificationRow & { found: boolean }>(
    deps.db,
    sql`with reviewed as (
        update certifications c set status = ${input.decision},
          reject_reason = ${approved ? null : (input.reason ?? null)},
          reviewed_by = ${actor.id}, reviewed_at = ${now}::timestamptz,
          updated_at = ${now}::timestamptz
        from ${old.from}
        where ${old.where} and c.status = 'pending'
        returning ${COLUMNS}, audit_old.audit_before),
      ${auditCte(actor, {
        action: approved ? "certification.approve" : "certification.reject",
        target: "certification",
        rows: sql`reviewed`,
        kind: "update",
        fields: ["status", "reject_reason"],
      })},
      notice as (${notificationInsert(
        kind,
        sql`select user_id, ${title}::text as title, ${body}::text as body,
              jsonb_build_object('certification_id', id, 'status', status) as data,
              ${kind} || ':' || id || ':' || ${now}::text as dedupe_key
            from reviewed`,
        now,
      )})
      select r.*, exists (select 1 from certifications where id = ${input.id}) as found
      from (select 1) one left join reviewed r on true`,
  );
  if (!row?.found) throw notFound("Certification not found");
  if (!row.id) throw conflict("Only a pending certification can be reviewed");
  return toCertificationResponse(row);
}
