/** What a company is to the seller (issue #24, item 5): from the analysis, `unknown` unless stated. */
export const COMPANY_ROLES = [
  "buyer",
  "distributor",
  "manufacturer",
  "competitor",
  "unknown",
] as const;
export type CompanyRole = (typeof COMPANY_ROLES)[number];

/** The fields of a discovered company a source is cited for. */
export const SOURCE_FIELDS = [
  "name",
  "website",
  "country",
  "summary",
  "email",
  "phone",
  "role",
] as const;
export type SourceField = (typeof SOURCE_FIELDS)[number];

/** A search result a field of the company came from (a result URL: never invented, never fetched). */
export interface CompanySource {
  field: SourceField;
  url: string;
}

/** What a discovery search returns; the agent builds on the same shape. */
export interface DiscoveredCompany {
  name: string;
  website: string | null;
  country: string | null;
  /** Why this company may buy the product, from the search results (LLM analysis). */
  summary: string;
  /** 0-100: how well the company fits the product and market. */
  fit_score: number;
  contact: { email: string | null; phone: string | null };
  /** What the company is to the seller, and why (the analysis's words). */
  role: CompanyRole;
  role_reason: string;
  /** The result URLs each field came from (at least one, for `name`). */
  sources: CompanySource[];
  /** A customer of the caller's that is this company (domain or normalised name), else null. */
  existing_customer_id: string | null;
}

export interface DiscoveryResult {
  product: string;
  market: string;
  /** The (at most 3) search queries that were run. */
  queries: string[];
  companies: DiscoveredCompany[];
  /** Search provider(s) and LLM provider that served it. */
  search_providers: string[];
  analysis_provider: string;
}
