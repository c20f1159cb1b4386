import { createRoute, z } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { requireAuth } from "../../http/auth";
import {
  ApiError,
  authErrorResponses,
  ErrorSchema,
  errorResponse,
  ValidationErrorSchema,
  validationError,
} from "../../http/errors";
import { jsonResponse as json, bearerSecurity as security } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { ImportBody, ImportRejectedSchema } from "../imports/schemas";
import { IMPORT_MAX_BYTES, importGlossary } from "./import";
import { GlossaryImportQuery, GlossaryImportResultSchema, glossaryLang } from "./schemas";

/** 10 MB per upload, as the customer import; past it a 413 `{detail}`. */
const importBodyLimit = bodyLimit({
  maxSize: IMPORT_MAX_BYTES,
  onError: () => {
    throw new ApiError(413, "The file is too large: at most 10 MB can be imported");
  },
});

const PairQuery = GlossaryImportQuery.extend({
  source_lang: z.string().max(20).optional().openapi({
    description: "The source language of rows without a source_lang column or cell",
  }),
  target_lang: z.string().max(20).optional().openapi({
    description: "The target language of rows without a target_lang column or cell",
  }),
});

const importRoute = createRoute({
  method: "post",
  path: "/api/v1/glossary/import",
  tags: ["Glossary"],
  security,
  summary:
    "Import glossary terms from .xlsx or .csv (manager+): valid rows are added or replace the pair's term, invalid rows are listed",
  description:
    "Columns: source_term and target_term (required), source_lang, target_lang (else the " +
    "query's), note; English or Chinese headers. The customer import's limits: 10 MB, 5,000 " +
    "rows, at most 1,000 errors listed. `dry_run=true` validates and writes nothing.",
  middleware: [requireAuth, importBodyLimit] as const,
  request: {
    query: PairQuery,
    body: { required: true, content: { "multipart/form-data": { schema: ImportBody } } },
  },
  responses: {
    200: json(GlossaryImportResultSchema, "What was written, and each invalid row's errors"),
    413: errorResponse(ErrorSchema, "Over 10 MB"),
    ...authErrorResponses,
    403: errorResponse(
      ErrorSchema,
      "Missing or invalid CSRF token, or the caller is a member (a manager, an admin or the owner keeps the glossary)",
    ),
    422: errorResponse(
      z.union([ImportRejectedSchema, ValidationErrorSchema]),
      "The file could not be read, or it has no source_term or target_term column",
    ),
  },
});

/** POST /api/v1/glossary/import: in group `documents`, with the other spreadsheet readers. */
export function createGlossaryImportRoutes() {
  const router = createRouter();
  router.openapi(importRoute, async (c) => {
    const query = c.req.valid("query");
    const file = c.req.valid("form").file;
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (bytes.byteLength > IMPORT_MAX_BYTES) {
      throw new ApiError(413, "The file is too large: at most 10 MB can be imported");
    }
    const pairOf = (value: string | undefined, name: string) => {
      if (value === undefined || value === "") return undefined;
      const lang = glossaryLang(value);
      if (!lang) {
        throw validationError([
          { loc: ["query", name], msg: "Not a language code", type: "custom" },
        ]);
      }
      return lang;
    };
    const result = await importGlossary(c.get("deps"), {
      userId: c.get("auth").userId,
      bytes,
      filename: (file as { name?: string }).name || undefined,
      dryRun: query.dry_run === "true" || query.dry_run === "1",
      sourceLang: pairOf(query.source_lang, "source_lang"),
      targetLang: pairOf(query.target_lang, "target_lang"),
    });
    return c.json(result, 200);
  });
  return router;
}
