import { z } from "@hono/zod-openapi";
import { AI_PROVIDER_KINDS, QUOTA_PERIODS } from "../../db/schema";
import { booleanQuery } from "../../http/query";
import { timestamp } from "../../http/schemas";
import { httpUrlWithoutCredentials } from "../../http/url-schema";
import { pageQuery, pageSchema } from "../../lib/pagination";
import { AI_TASKS } from "../ai/routing";
import { providerAdminSchemas } from "../provider-admin/schemas";
import { AiRoutingSchema } from "../system-config/schemas";

const notEmpty = <T extends object>(body: T) => Object.keys(body).length > 0;
const sendSomething = { error: "Send at least one field to change" };

// ---------------------------------------------------------------- AI providers

const modelId = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^\S+$/, { error: "A model id has no spaces" });
const models = z
  .array(modelId)
  .max(50)
  .refine((list) => new Set(list).size === list.length, { error: "Models must be distinct" })
  .openapi({
    description: "Model ids (llm: 1 to 50, the first is the default; mt: may be empty)",
    example: ["gpt-4o-mini", "gpt-4o"],
  });

/** The kind is permanent (routing and quotas depend on it); `api_key: null` clears the key. */
export const ProviderSchemas = providerAdminSchemas({
  names: {
    input: "AiProviderInput",
    patch: "AiProviderPatch",
    row: "AiProvider",
    page: "AiProviderPage",
  },
  kinds: AI_PROVIDER_KINDS,
  kindDescription: "`llm`: OpenAI-compatible chat completions; `mt`: DeepL v2 translation",
  nameExample: "openai",
  baseUrl: httpUrlWithoutCredentials(
    500,
    "An http or https URL without credentials, e.g. https://api.openai.com/v1",
  ).openapi({ example: "https://api.openai.com/v1" }),
  apiKeyExample: "sk-live-0123456789abcdef",
  timeoutMs: { max: 300_000, example: 30_000, default: 30_000 },
  extra: {
    body: { models: models.default([]) },
    patch: { models },
    row: { models: z.array(z.string()) },
  },
  check: (body, ctx) => {
    if (body.kind === "llm" && body.models?.length === 0) {
      ctx.addIssue({
        code: "custom",
        path: ["models"],
        message: "An llm provider needs at least one model",
      });
    }
  },
});
export type ProviderInput = z.infer<typeof ProviderSchemas.Body>;
export type ProviderPatchInput = z.infer<typeof ProviderSchemas.Patch>;

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
