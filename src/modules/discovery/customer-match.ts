import type { Deps } from "../../ports";
import {
  emailDomain,
  matchableName,
  normaliseCompanyName,
  websiteDomain,
} from "./company-identity";
import { customerCandidates } from "./queries/seller";
import type { DiscoveredCompany } from "./types";

/** What identifies a discovered company: its registrable domains and its normalised name. */
function identityOf(company: Pick<DiscoveredCompany, "name" | "website" | "contact">) {
  const domains = new Set<string>();
  const site = websiteDomain(company.website);
  if (site) domains.add(site);
  const mail = emailDomain(company.contact.email);
  if (mail) domains.add(mail);
  const name = normaliseCompanyName(company.name);
  return { domains, name: matchableName(name) ? name : undefined };
}

/**
 * Sets each company's `existing_customer_id`: a customer the caller sees (their own and the
 * pool's; a manager's, the organisation's: never another organisation's) whose email domain is
 * the company's website or email domain, else whose normalised company name is the company's.
 * One query for all the companies (customerCandidates); the comparison is exact, here. Among
 * several matches the caller's own customer wins, then the pool's, then the oldest.
 */
export async function markExistingCustomers<
  C extends Pick<DiscoveredCompany, "name" | "website" | "contact" | "existing_customer_id">,
>(deps: Deps, userId: string, companies: C[]): Promise<C[]> {
  const identities = companies.map(identityOf);
  const patterns = new Set<string>();
  for (const identity of identities) {
    for (const domain of identity.domains) patterns.add(domain);
    if (identity.name) patterns.add(identity.name);
  }
  const rows = await customerCandidates(deps.db, { userId, patterns: [...patterns] });
  const byDomain = new Map<string, string>();
  const byName = new Map<string, string>();
  // Rows come best first: the first customer of a domain or name is the one kept.
  for (const row of rows) {
    const domain = emailDomain(row.email);
    if (domain && !byDomain.has(domain)) byDomain.set(domain, row.id);
    const name = normaliseCompanyName(row.company);
    if (name && matchableName(name) && !byName.has(name)) byName.set(name, row.id);
  }
  return companies.map((company, i) => {
    const identity = identities[i]!;
    let id: string | undefined;
    for (const domain of identity.domains) id ??= byDomain.get(domain);
    if (!id && identity.name) id = byName.get(identity.name);
    return { ...company, existing_customer_id: id ?? null };
  });
}
