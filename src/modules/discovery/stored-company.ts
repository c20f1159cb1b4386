import {
  COMPANY_ROLES,
  type CompanyRole,
  type CompanySource,
  type DiscoveredCompany,
  SOURCE_FIELDS,
  type SourceField,
} from "./types";

/**
 * A company as stored in a record or a job's result, in today's shape: rows saved before
 * issue #24 hold sources as bare URLs (read as cited for `name`) and no role (`unknown`) or
 * existing_customer_id (null).
 */
function storedCompany(raw: unknown): DiscoveredCompany {
  const c = (raw ?? {}) as Partial<DiscoveredCompany> & { sources?: unknown[] };
  const role: CompanyRole = COMPANY_ROLES.includes(c.role as CompanyRole)
    ? (c.role as CompanyRole)
    : "unknown";
  const sources: CompanySource[] = (Array.isArray(c.sources) ? c.sources : []).flatMap((s) => {
    if (typeof s === "string") return [{ field: "name" as const, url: s }];
    const o = s as Partial<CompanySource> | null;
    if (!o || typeof o.url !== "string") return [];
    const field = SOURCE_FIELDS.includes(o.field as SourceField)
      ? (o.field as SourceField)
      : "name";
    return [{ field, url: o.url }];
  });
  return {
    name: c.name ?? "",
    website: c.website ?? null,
    country: c.country ?? null,
    summary: c.summary ?? "",
    fit_score: c.fit_score ?? 0,
    contact: { email: c.contact?.email ?? null, phone: c.contact?.phone ?? null },
    role,
    role_reason: typeof c.role_reason === "string" ? c.role_reason : "",
    sources,
    existing_customer_id:
      typeof c.existing_customer_id === "string" ? c.existing_customer_id : null,
  };
}

export const storedCompanies = (raw: unknown): DiscoveredCompany[] =>
  Array.isArray(raw) ? raw.map(storedCompany) : [];
