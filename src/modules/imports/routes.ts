import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { requireAuth } from "../../http/auth";
import { planLimitResponses } from "../../http/entitlements";
import type { AppEnv } from "../../http/env";
import {
  ApiError,
  authErrorResponses,
  ErrorSchema,
  ValidationErrorSchema,
  validationError,
} from "../../http/errors";
import { bearerSecurity as security } from "../../http/openapi";
import { createRouter } from "../../http/router";
import { CSV_MIME, XLSX_MIME } from "../../lib/spreadsheet";
import { exportFile } from "./exports";
import {
  ExportQuery,
  ImportBody,
  ImportQuery,
  ImportRejectedSchema,
  ImportResultSchema,
} from "./schemas";
import { errorsFile, IMPORT_MAX_BYTES, type ImportKind, runImport } from "./service";

/** 10 MB per upload; past it a 413 `{detail}` (checked on Content-Length and on the stream). */
const importBodyLimit = bodyLimit({
  maxSize: IMPORT_MAX_BYTES,
  onError: () => {
    throw new ApiError(413, "The file is too large: at most 10 MB can be imported");
  },
});

const fileResponse = (description: string) => ({
  description,
  content: {
    [XLSX_MIME]: { schema: { type: "string" as const, format: "binary" } },
    "text/csv": { schema: { type: "string" as const, format: "binary" } },
  },
});

const importRoute = (kind: ImportKind, path: string) =>
  createRoute({
    method: "post",
    path,
    tags: [kind === "customers" ? "Customers" : "Products"],
    security,
    summary: `Import ${kind} from .xlsx or .csv (dry run previews; commit is all-or-nothing)`,
    middleware: [requireAuth, importBodyLimit] as const,
    request: {
      query: ImportQuery,
      body: { required: true, content: { "multipart/form-data": { schema: ImportBody } } },
    },
    responses: {
      200: {
        description: "Import result (or, with errors_file, the sheet with an error column)",
        content: {
          "application/json": { schema: ImportResultSchema },
          ...fileResponse("").content,
        },
      },
      413: { description: "Over 10 MB", content: { "application/json": { schema: ErrorSchema } } },
      ...authErrorResponses,
      403: {
        description:
          kind === "products"
            ? "Missing or invalid CSRF token, or the caller is a member (only a manager, an admin or the owner changes the catalogue)"
            : "Missing or invalid CSRF token",
        content: { "application/json": { schema: ErrorSchema } },
      },
      422: {
        description: "The sheet was rejected (row errors), or the request was invalid",
        content: {
          "application/json": {
            schema: z.union([ImportRejectedSchema, ValidationErrorSchema]),
          },
        },
      },
      ...(kind === "customers" ? planLimitResponses("customers") : {}),
    },
  });

const customersImportRoute = importRoute("customers", "/api/v1/customers/import");
const productsImportRoute = importRoute("products", "/api/v1/products/import");

const exportRoute = (kind: ImportKind, path: string) =>
  createRoute({
    method: "get",
    path,
    tags: [kind === "customers" ? "Customers" : "Products"],
    security,
    summary: `The ${kind} the caller sees (customers: a member's own and the pool, a manager's the organisation's) as .xlsx (default) or csv, with the import's headers`,
    middleware: [requireAuth] as const,
    request: { query: ExportQuery },
    responses: { 200: fileResponse("The spreadsheet"), ...authErrorResponses },
  });

const customersExportRoute = exportRoute("customers", "/api/v1/customers/export");
const productsExportRoute = exportRoute("products", "/api/v1/products/export");

function download(
  body: Uint8Array | ReadableStream<Uint8Array>,
  format: "xlsx" | "csv",
  name: string,
): Response {
  return new Response(body as Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>, {
    status: 200,
    headers: {
      "Content-Type": format === "xlsx" ? XLSX_MIME : CSV_MIME,
      "Content-Disposition": `attachment; filename="${name}.${format}"`,
    },
  });
}

async function handleImport(
  c: Context<AppEnv>,
  kind: ImportKind,
  file: File,
  query: z.infer<typeof ImportQuery>,
) {
  const deps = c.get("deps");
  const dryRun = query.dry_run === "true" || query.dry_run === "1";
  if (query.errors_file && !dryRun) {
    throw validationError([
      { loc: ["query", "errors_file"], msg: "errors_file needs dry_run=true", type: "value_error" },
    ]);
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (bytes.byteLength > IMPORT_MAX_BYTES) {
    throw new ApiError(413, "The file is too large: at most 10 MB can be imported");
  }
  const input = {
    kind,
    userId: c.get("auth").userId,
    bytes,
    filename: (file as { name?: string }).name || undefined,
  };
  if (query.errors_file) {
    const out = await errorsFile(deps, input, query.errors_file);
    return download(out, query.errors_file, `${kind}-errors`);
  }
  return c.json(await runImport(deps, { ...input, dryRun }), 200);
}

async function handleExport(c: Context<AppEnv>, kind: ImportKind, format: "xlsx" | "csv") {
  const deps = c.get("deps");
  const body = await exportFile(deps, kind, c.get("auth").userId, format);
  const day = deps.clock.now().toISOString().slice(0, 10);
  return download(body, format, `${kind}-${day}`);
}

export function createImportExportRoutes() {
  const router = createRouter();
  router.openapi(customersImportRoute, async (c) =>
    handleImport(c, "customers", c.req.valid("form").file, c.req.valid("query")),
  );
  router.openapi(productsImportRoute, async (c) =>
    handleImport(c, "products", c.req.valid("form").file, c.req.valid("query")),
  );
  router.openapi(customersExportRoute, async (c) =>
    handleExport(c, "customers", c.req.valid("query").format),
  );
  router.openapi(productsExportRoute, async (c) =>
    handleExport(c, "products", c.req.valid("query").format),
  );
  return router;
}
