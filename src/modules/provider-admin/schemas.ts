import { z } from "@hono/zod-openapi";
import { booleanQuery } from "../../http/query";
import { pageQuery, pageSchema } from "../../lib/pagination";

const PROVIDER_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

const notEmpty = <T extends object>(body: T) => Object.keys(body).length > 0;

/** What differs between one provider admin's schemas and another's (AI, search). */
export interface ProviderSchemasSpec<
  Kinds extends readonly [string, ...string[]],
  ExtraBody extends z.ZodRawShape,
  ExtraPatch extends z.ZodRawShape,
  ExtraRow extends z.ZodRawShape,
> {
  /** The component names, exactly as the OpenAPI document spells them. */
  names: { input: string; patch: string; row: string; page: string };
  kinds: Kinds;
  kindDescription: string;
  nameExample: string;
  /** The `base_url` field (validation and example). */
  baseUrl: z.ZodType<string>;
  apiKeyExample: string;
  timeoutMs: { max: number; example: number; default: number };
  /** Fields after `api_key` (e.g. the AI providers' `models`): in the body, the patch, the row. */
  extra: { body: ExtraBody; patch: ExtraPatch; row: ExtraRow };
  /** Cross-field rules of the create body (e.g. a brave provider needs a key). */
  check: (
    body: { kind: Kinds[number]; api_key?: string; models?: string[] },
    ctx: z.RefinementCtx,
  ) => void;
}

/**
 * The request, response and list-query schemas of one provider admin (see
 * providerAdminRoutes): name, kind, base_url, write-only api_key, enabled, timeout_ms, plus
 * each side's extra fields. The kind is permanent (not in the patch); `api_key: null` clears
 * the key.
 */
export function providerAdminSchemas<
  const Kinds extends readonly [string, ...string[]],
  ExtraBody extends z.ZodRawShape,
  ExtraPatch extends z.ZodRawShape,
  ExtraRow extends z.ZodRawShape,
>(spec: ProviderSchemasSpec<Kinds, ExtraBody, ExtraPatch, ExtraRow>) {
  const name = z
    .string()
    .regex(PROVIDER_NAME, {
      error: "1-40 lower-case letters, digits, - and _, starting with a letter or digit",
    })
    .openapi({ example: spec.nameExample });
  const apiKey = z.string().trim().min(8).max(1000).openapi({
    description: "Write-only: stored encrypted, never returned (responses show api_key_hint)",
    example: spec.apiKeyExample,
  });
  const enabled = z.boolean();
  const timeoutMs = z
    .number()
    .int()
    .min(1000)
    .max(spec.timeoutMs.max)
    .openapi({ example: spec.timeoutMs.example });

  const Body = z
    .object({
      name,
      kind: z.enum(spec.kinds).openapi({ description: spec.kindDescription }),
      base_url: spec.baseUrl,
      api_key: apiKey.optional(),
      ...spec.extra.body,
      enabled: enabled.default(true),
      timeout_ms: timeoutMs.default(spec.timeoutMs.default),
    })
    .strict()
    .superRefine((body, ctx) => spec.check(body as Parameters<typeof spec.check>[0], ctx))
    .openapi(spec.names.input);

  const Patch = z
    .object({
      name,
      base_url: spec.baseUrl,
      api_key: apiKey.nullable(),
      ...spec.extra.patch,
      enabled,
      timeout_ms: timeoutMs,
    })
    .partial()
    .strict()
    .refine(notEmpty, { error: "Send at least one field to change" })
    .openapi(spec.names.patch);

  const Schema = z
    .object({
      id: z.string(),
      name: z.string(),
      kind: z.enum(spec.kinds),
      base_url: z.string(),
      api_key_set: z.boolean(),
      api_key_hint: z.string().nullable().openapi({ description: "Last 4 characters of the key" }),
      ...spec.extra.row,
      enabled: z.boolean(),
      timeout_ms: z.number().int(),
      created_at: z.string(),
      updated_at: z.string(),
    })
    .openapi(spec.names.row);

  return {
    Body,
    Patch,
    Schema,
    Page: pageSchema(Schema).openapi(spec.names.page),
    ListQuery: pageQuery().extend({
      kind: z.enum(spec.kinds).optional(),
      enabled: booleanQuery(),
    }),
  };
}
