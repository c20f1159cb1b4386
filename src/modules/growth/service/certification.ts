import type { CERTIFICATION_STATUSES } from "../../../db/schema";
import { conflict, forbidden, notFound } from "../../../http/errors";
import { iso } from "../../../lib/clock";
import type { Deps } from "../../../ports";
import type { Actor } from "../../admin/queries/audit";
import {
  type CertificationRow,
  getUserCertification,
  listCertifications as listCertificationRows,
  reviewCertification as reviewCertificationRow,
  upsertCertification,
} from "../queries";

export type CertificationStatus = (typeof CERTIFICATION_STATUSES)[number];

export interface CertificationInput {
  company_name: string;
  license_no: string;
  contact_name: string;
  contact_phone: string;
}

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
  const row = await upsertCertification(deps.db, {
    userId,
    companyName: input.company_name,
    licenseNo: input.license_no,
    contactName: input.contact_name,
    contactPhone: input.contact_phone,
    now: deps.clock.now().toISOString(),
  });
  if (row?.is_guest === null || row?.is_guest === undefined) throw notFound("User not found");
  if (row.is_guest)
    throw forbidden("Register an account to apply for certification", "guest_not_allowed");
  if (!row.id) throw conflict("A certification is already pending or approved");
  return toCertificationResponse(row as CertificationRow);
}

export async function getCertification(deps: Deps, userId: string) {
  const row = await getUserCertification(deps.db, { userId });
  if (!row) throw notFound("No certification submitted");
  return toCertificationResponse(row);
}

export async function listCertifications(
  deps: Deps,
  query: { page: number; size: number; status?: CertificationStatus },
) {
  const { rows, total } = await listCertificationRows(deps.db, query);
  return {
    items: rows.map((r) => ({
      ...toCertificationResponse(r),
      user_id: r.user_id,
      email: r.email,
      reviewed_by: r.reviewed_by,
    })),
    total,
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
  const row = await reviewCertificationRow(deps.db, actor, {
    id: input.id,
    decision: input.decision,
    reason: approved ? null : (input.reason ?? null),
    notice: { kind, title, body },
    now,
  });
  if (!row?.found) throw notFound("Certification not found");
  if (!row.id) throw conflict("Only a pending certification can be reviewed");
  return toCertificationResponse(row as CertificationRow);
}
