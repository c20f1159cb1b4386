import { z } from "@hono/zod-openapi";
import { AI_PROVIDER_KINDS, QUOTA_PERIODS } from "../../db/schema";
import { booleanQuery } from "../../http/query";
import { timestamp } from "../../http/schemas";
import { httpUrlWithoutCredentials } from "../../http/url-schema";
import { pageQuery, pageSchema } from "../../lib/pagination";
import { AI_TASKS } from "../ai/routing";
import { AiRoutingSchema } from "../system-config/schemas";

const notEmpty = <T extends object>(body: T) => Object.keys(body).length > 0;
const sendSomething = { error: "Send at least one field to change" };

// ---------------------------------------------------------------- AI providers

const PROVIDER_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

const baseUrl = httpUrlWithoutCredentials(
  500,
  "An http or https URL without credentials, e.g. https://api.openai.com/v1",
);

const modelId = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^\S+$/, { error: "A model id has no spaces" });
const models = z
  .array(modelId)
  .max(50)
  .refine((list) => new Set(list).size === list.length, { error: "Models must be distinct" });

const providerFields = {
  name: z
    .string()
    .regex(PROVIDER_NAME, {
      error: "1-40 lower-case letters, digits, - and _, starting with a letter or digit",
    })
    .openapi({ example: "openai" }),
  kind: z.enum(AI_PROVIDER_KINDS).openapi({
    description: "`llm`: OpenAI-compatible chat completions; `mt`: DeepL v2 translation",
  }),
  base_url: baseUrl.openapi({ example: "https://api.openai.com/v1" }),
  api_key: z.string().trim().min(8).max(1000).openapi({
    description: "Write-only: stored encrypted, never returned (responses show api_key_hint)",
    example: "sk-live-0123456789abcdef",
  }),
  models: models.openapi({
    description: "Model ids (llm: 1 to 50, the first is the default; mt: may be empty)",
    example: ["gpt-4o-mini", "gpt-4o"],
  }),
  enabled: z.boolean(),
  timeout_ms: z.number().int().min(1000).max(300_000).openapi({ example: 30_000 }),
};

const llmNeedsModels = (
  body: { kind?: string; models?: string[] },
  ctx: { addIssue: (issue: { code: "custom"; path: string[]; message: string }) => void },
) => {
  if (body.kind === "llm" && body.models?.length === 0) {
    ctx.addIssue({
      code: "custom",
      path: ["models"],
      message: "An llm provider needs at least one model",
    });
  }
};

export const ProviderBody = z
  .object({
    ...providerFields,
    api_key: providerFields.api_key.optional(),
    models: providerFields.models.default([]),
    enabled: providerFields.enabled.default(true),
    timeout_ms: providerFields.timeout_ms.default(30_000),
  })
  .strict()
  .superRefine(llmNeedsModels)
  .openapi("AiProviderInput");
export type ProviderInput = z.infer<typeof ProviderBody>;

/** The kind is permanent (routing and quotas depend on it); `api_key: null` clears the key. */
export const ProviderPatch = z
  .object({
    name: providerFields.name,
    base_url: providerFields.base_url,
    api_key: providerFields.api_key.nullable(),
    models: providerFields.models,
    enabled: providerFields.enabled,
    timeout_ms: providerFields.timeout_ms,
  })
  .partial()
  .strict()
  .refine(notEmpty, sendSomething)
  .openapi("AiProviderPatch");
export type ProviderPatchInput = z.infer<typeof ProviderPatch>;

export const ProviderSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(AI_PROVIDER_KINDS),
    base_url: z.string(),
    api_key_set: z.boolean(),
    api_key_hint: z.string().nullable().openapi({ description: "Last 4 characters of the key" }),
    models: z.array(z.string()),
    enabled: z.boolean(),
    timeout_ms: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("AiProvider");
export const ProviderPage = pageSchema(ProviderSchema).openapi("AiProviderPage");

export const ProviderListQuery = pageQuery().extend({
  kind: z.enum(AI_PROVIDER_KINDS).optional(),
  enabled: booleanQuery(),
});

// ---------------------------------------------------------------- AI routing

/** The PUT body is the routing map itself: task -> ordered `provider` / `provider:model`. */
const routingExample = { chat: ["openai:gpt-4o-mini", "deepseek"], translate: ["openai"] };
export const RoutingBody = AiRoutingSchema.openapi("AiRoutingInput", {
  description: `Task (${AI_TASKS.join(", ")}) -> up to 10 distinct entries naming llm providers`,
  example: routingExample,
});
const taskMap = <T extends z.ZodType>(value: T) =>
  z.object(Object.fromEntries(AI_TASKS.map((task) => [task, value])) as Record<string, T>);

export const RoutingSchema = z
  .object({
    routing: taskMap(z.array(z.string())).openapi({
      description: "The stored `ai.routing`, every known task listed",
      // Every task is listed in the stored form, so its example lists them all.
      example: Object.fromEntries(
        AI_TASKS.map((task) => [task, routingExample[task as keyof typeof routingExample] ?? []]),
      ),
    }),
    effective: taskMap(z.array(z.object({ provider: z.string(), model: z.string() }))).openapi({
      description:
        "Per task, what will actually run, in order: routed entries naming enabled llm " +
        "providers (a bare name uses the provider's first model), or, for an empty list, " +
        "every enabled llm provider",
    }),
    updated_at: z.string().nullable(),
  })
  .openapi("AiRouting");

// ---------------------------------------------------------------- translation quotas

export const QuotaBody = z
  .object({
    provider_id: z.uuid({ error: "Not a valid id" }),
    period: z.enum(QUOTA_PERIODS),
    char_limit: z.number().int().min(0).max(2_000_000_000).openapi({ example: 500_000 }),
    enabled: z.boolean().default(true),
  })
  .strict()
  .openapi("TranslationQuotaInput");
export type QuotaInput = z.infer<typeof QuotaBody>;

/** The provider is permanent; a new period starts counting from the current UTC period. */
export const QuotaPatch = z
  .object({
    period: z.enum(QUOTA_PERIODS),
    char_limit: z.number().int().min(0).max(2_000_000_000),
    enabled: z.boolean(),
  })
  .partial()
  .strict()
  .refine(notEmpty, sendSomething)
  .openapi("TranslationQuotaPatch");
export type QuotaPatchInput = z.infer<typeof QuotaPatch>;

export const QuotaSchema = z
  .object({
    id: z.string(),
    provider_id: z.string(),
    provider_name: z.string(),
    tier: z.enum(AI_PROVIDER_KINDS).openapi({ description: "The provider's kind" }),
    period: z.enum(QUOTA_PERIODS),
    char_limit: z.number().int(),
    chars_used: z.number().int().openapi({
      description: "Used in the current period (0 once the stored period has ended)",
    }),
    remaining: z.number().int(),
    period_start: timestamp(),
    resets_at: z.string(),
    enabled: z.boolean(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("TranslationQuota");
export const QuotaPage = pageSchema(QuotaSchema).openapi("TranslationQuotaPage");

export const QuotaListQuery = pageQuery().extend({
  provider_id: z.uuid().optional(),
  period: z.enum(QUOTA_PERIODS).optional(),
  enabled: booleanQuery(),
});

// ---------------------------------------------------------------- FAQ

/** Trimmed, lower-cased and de-duplicated, in the order given. */
const keywords = z
  .array(z.string().trim().toLowerCase().min(1).max(50))
  .max(20)
  .transform((list) => [...new Set(list)])
  .openapi({ example: ["moq", "minimum order"] });

const faqFields = {
  question: z.string().trim().min(1).max(500).openapi({ example: "What is your MOQ?" }),
  answer: z.string().trim().min(1).max(4000).openapi({ example: "Our MOQ is 500 pieces." }),
  keywords,
  enabled: z.boolean(),
  sort_order: z.number().int().min(0).max(10_000),
};

export const FaqBody = z
  .object({
    ...faqFields,
    keywords: keywords.default([]),
    enabled: faqFields.enabled.default(true),
    sort_order: faqFields.sort_order.default(0),
  })
  .strict()
  .openapi("FaqInput");
export type FaqInput = z.infer<typeof FaqBody>;

export const FaqPatch = z
  .object(faqFields)
  .partial()
  .strict()
  .refine(notEmpty, sendSomething)
  .openapi("FaqPatch");
export type FaqPatchInput = z.infer<typeof FaqPatch>;

export const FaqSchema = z
  .object({
    id: z.string(),
    question: z.string(),
    answer: z.string(),
    keywords: z.array(z.string()),
    enabled: z.boolean(),
    sort_order: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Faq");
export const FaqPage = pageSchema(FaqSchema).openapi("FaqPage");

export const FaqListQuery = pageQuery().extend({
  enabled: booleanQuery(),
  q: z.string().trim().min(1).max(100).optional().openapi({ description: "Matches the question" }),
});
