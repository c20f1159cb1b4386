import { z } from "@hono/zod-openapi";
import { DISCOVERY_JOB_STATUSES, SEARCH_PROVIDER_KINDS } from "../../db/schema";
import { httpUrlWithoutCredentials } from "../../http/url-schema";
import { pageQuery, pageSchema } from "../../lib/pagination";
import { quoteIdField } from "../credits/quote-field";
import { providerAdminSchemas } from "../provider-admin/schemas";
import { MAX_COMPANIES } from "./service";
import { COMPANY_ROLES, SOURCE_FIELDS } from "./types";

const product = z.string().trim().min(1).max(200).openapi({ example: "LED panel lights 600x600" });
const market = z.string().trim().min(1).max(100).openapi({ example: "Germany" });

// ---------------------------------------------------------------- search

export const SearchBody = z
  .object({
    product,
    market,
    max_companies: z
      .number()
      .int()
      .min(1)
      .max(MAX_COMPANIES)
      .optional()
      .openapi({
        description: `Companies to return at most (default 10, up to ${MAX_COMPANIES})`,
        example: 10,
      }),
    quote_id: quoteIdField,
  })
  .strict()
  .openapi("DiscoverySearchInput");
export type SearchInput = z.infer<typeof SearchBody>;

const httpUrl = httpUrlWithoutCredentials(1000, "An http or https URL");

const optionalText = (max: number) => z.string().trim().max(max).nullable();

const companyFields = {
  name: z.string().trim().min(1).max(200).openapi({ example: "Acme Lighting GmbH" }),
  website: httpUrl.nullable().openapi({ example: "https://acme-lighting.example/" }),
  country: optionalText(100).openapi({ example: "Germany" }),
  summary: z.string().trim().max(1000).openapi({
    description: "Why the company may buy the product (LLM analysis of the search results)",
    example: "Importer and wholesaler of commercial LED lighting for offices",
  }),
  fit_score: z.number().int().min(0).max(100).openapi({ example: 82 }),
  contact: z
    .object({
      email: z.email({ error: "Not a valid email" }).max(200).nullable(),
      phone: optionalText(50),
    })
    .strict()
    .openapi({ description: "Only as found in the search results" }),
};

const roleField = z.enum(COMPANY_ROLES).openapi({
  description:
    "What the company is to the seller, from the analysis given the seller's own catalogue: " +
    "`buyer`, `distributor` (importer, wholesaler), `manufacturer` (may use the product), " +
    "`competitor` (only when the analysis says so), `unknown` (not stated)",
  example: "distributor",
});
const roleReasonField = z.string().trim().max(300).openapi({
  description: "Why that role, in a sentence from the search results",
  example: "Imports and wholesales commercial LED lighting",
});

const CompanySourceSchema = z
  .object({
    field: z.enum(SOURCE_FIELDS).openapi({ description: "The field the result supports" }),
    url: httpUrl.openapi({ description: "A search result URL (data only, never fetched)" }),
  })
  .strict()
  .openapi("DiscoveredCompanySource");

const existingCustomerField = z
  .uuid()
  .nullable()
  .openapi({
    description:
      "A customer of the caller's (one they see) that is this company: same website or email " +
      "domain, or the same name once punctuation and legal suffixes (Ltd, GmbH, S.A., 有限公司) are dropped",
  });

const CompanySchema = z
  .object({
    ...companyFields,
    role: roleField,
    role_reason: roleReasonField,
    sources: z
      .array(CompanySourceSchema)
      .max(30)
      .openapi({
        description:
          "The search result each field came from; URLs the analysis cited that were not among " +
          "the results are dropped",
        example: [{ field: "name", url: "https://acme-lighting.example/about" }],
      }),
    existing_customer_id: existingCustomerField,
  })
  .strict()
  .openapi("DiscoveredCompany");

/**
 * A company as a client saves it (POST /discovery/records): what a search answered. Earlier
 * clients' shape is accepted too: sources as bare URLs (cited for `name`), no role (`unknown`).
 * `existing_customer_id` is matched again on save, never taken from the body.
 */
const CompanyInputSchema = z
  .object({
    ...companyFields,
    role: roleField.optional().default("unknown"),
    role_reason: roleReasonField.optional().default(""),
    sources: z
      .array(
        z.union([
          CompanySourceSchema,
          httpUrl.transform((url) => ({ field: "name" as const, url })),
        ]),
      )
      .max(30),
    existing_customer_id: existingCustomerField.optional(),
  })
  .strict()
  .openapi("DiscoveredCompanyInput");

export const DiscoveryResultSchema = z
  .object({
    product: z.string(),
    market: z.string(),
    queries: z.array(z.string()).openapi({
      description: "The 3 web-search queries that were run",
      example: [
        "LED panel lights 600x600 importers Germany",
        "LED panel lights 600x600 distributors wholesalers Germany",
        "LED panel lights 600x600 buyers companies Germany",
      ],
    }),
    companies: z.array(CompanySchema).openapi({ description: "Best fit first" }),
    search_providers: z.array(z.string()).openapi({
      description: "The search providers that answered",
      example: ["brave"],
    }),
    analysis_provider: z.string().openapi({
      description: "The LLM provider that analysed the results (empty when nothing was found)",
      example: "openai",
    }),
    credits_charged: z.number().int(),
    balance: z.number().int().openapi({ description: "Credits left after the charge" }),
  })
  .openapi("DiscoverySearchResult");

// ---------------------------------------------------------------- background jobs

export const DiscoveryJobStarted = z
  .object({
    id: z.uuid(),
    status: z.enum(DISCOVERY_JOB_STATUSES).openapi({ example: "queued" }),
    credits_charged: z.number().int().openapi({
      description: "Charged when the job is queued; a job that finds no company refunds it",
    }),
    balance: z.number().int().openapi({ description: "Credits after the charge" }),
  })
  .openapi("DiscoveryJobStarted");

const stepStatus = z.enum(["pending", "running", "succeeded", "failed"]);

const DiscoveryJobProgress = z
  .object({
    queries: z
      .array(
        z.object({
          query: z.string(),
          status: stepStatus,
          provider: z.string().nullable().openapi({ description: "The provider that answered" }),
          results: z.number().int().nullable().openapi({ description: "Results it returned" }),
        }),
      )
      .openapi({ description: "The 3 web-search queries, in order, as they run" }),
    analysis: z.object({
      status: z.enum([...stepStatus.options, "skipped"]).openapi({
        description: "`skipped` when the queries found nothing to analyse",
      }),
      provider: z.string().nullable(),
      companies: z.number().int().nullable(),
    }),
  })
  .openapi("DiscoveryJobProgress");

/** The 202 answer's headers: where to poll the job. */
export const DiscoveryJobStartedHeaders = z.object({
  Location: z.string().openapi({ example: "/api/v1/discovery/jobs/{id}" }),
});

/** Who a discovery record, job or agent pipeline belongs to (docs/teams.md). */
export const holderFields = {
  org_id: z.string().openapi({ description: "The organisation it belongs to" }),
  user_id: z.string().openapi({ description: "The member who ran it" }),
  owner_name: z.string().nullable().openapi({ description: "That member's name" }),
};

export const DiscoveryJobSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(DISCOVERY_JOB_STATUSES),
    product: z.string(),
    market: z.string(),
    max_companies: z.number().int().nullable(),
    progress: DiscoveryJobProgress,
    // A union, not .nullable(): that renders as allOf [the result, null], which null fails.
    result: z.union([DiscoveryResultSchema, z.null()]).openapi({
      description: "Once succeeded: the same answer POST /discovery/search gives",
    }),
    record_id: z.uuid().nullable().openapi({
      description: "The discovery record the result was saved as (GET /discovery/records/{id})",
    }),
    error: z.string().nullable().openapi({ description: "Why the job failed (user-safe)" }),
    attempts: z.number().int(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    ...holderFields,
  })
  .openapi("DiscoveryJob");

/** QStash job payload of `discovery-run`. */
export const DiscoveryRunJob = z.object({ job_id: z.uuid() });

// ---------------------------------------------------------------- records

export const RecordBody = z
  .object({
    product,
    market,
    companies: z.array(CompanyInputSchema).max(100),
  })
  .strict()
  .openapi("DiscoveryRecordInput");
export type RecordInput = z.infer<typeof RecordBody>;

export const RecordSchema = z
  .object({
    id: z.string(),
    product: z.string(),
    market: z.string(),
    companies: z.array(CompanySchema),
    created_at: z.string(),
    ...holderFields,
  })
  .openapi("DiscoveryRecord");

const RecordSummarySchema = z
  .object({
    id: z.string(),
    product: z.string(),
    market: z.string(),
    companies: z.array(CompanySchema),
    company_count: z.number().int(),
    created_at: z.string(),
    ...holderFields,
  })
  .openapi("DiscoveryRecordListItem");
export const RecordPage = pageSchema(RecordSummarySchema).openapi("DiscoveryRecordPage");

export const RecordListQuery = pageQuery().extend({
  q: z.string().trim().min(1).max(100).optional().openapi({
    description: "Matches the product or the market (case-insensitive substring)",
  }),
});

export const DeleteQuery = z.object({
  id: z
    .uuid({ error: "Not a valid id" })
    .optional()
    .openapi({ description: "The record to delete (the path form is preferred)" }),
});

// ---------------------------------------------------------------- admin: search providers

/** The kind is permanent; `api_key: null` clears the key. */

export const ProviderSchemas = providerAdminSchemas({
  names: {
    input: "SearchProviderInput",
    patch: "SearchProviderPatch",
    row: "SearchProvider",
    page: "SearchProviderPage",
  },
  kinds: SEARCH_PROVIDER_KINDS,
  kindDescription:
    "`brave`: Brave Search API (needs a key); `searxng`: a SearXNG instance's JSON API " +
    "(a key, if set, is sent as a Bearer token for an authenticating proxy)",
  nameExample: "brave",
  baseUrl: httpUrl
    .refine((value) => value.length <= 500, { error: "At most 500 characters" })
    .openapi({ example: "https://api.search.brave.com" }),
  apiKeyExample: "BSA-0123456789abcdef",
  timeoutMs: { max: 120_000, example: 15_000, default: 15_000 },
  extra: { body: {}, patch: {}, row: {} },
  check: (body, ctx) => {
    if (body.kind === "brave" && !body.api_key) {
      ctx.addIssue({
        code: "custom",
        path: ["api_key"],
        message: "A brave provider needs an API key",
      });
    }
  },
});
export type ProviderInput = z.infer<typeof ProviderSchemas.Body>;
export type ProviderPatchInput = z.infer<typeof ProviderSchemas.Patch>;
