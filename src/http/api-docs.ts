import type { Context, Hono } from "hono";
import { html, raw } from "hono/html";
import { base64url } from "../lib/crypto";
import type { AppEnv } from "./env";

/**
 * The /docs page, served entirely by the app: Scalar's standalone bundle comes from the npm
 * package (Node reads it from node_modules, a Worker bundles it as a Text module), so the page
 * works offline and runs no script a CDN could change under it.
 */

/** The npm package's standalone browser bundle (an exported subpath of @scalar/api-reference). */
export const SCALAR_BUNDLE = "@scalar/api-reference/browser/standalone.js";
const DOCS_PATH = "/docs";
const DOCS_SCRIPT_PATH = "/docs/scalar-standalone.js";
/** The script's URL carries its hash, so it can be cached for a year and never go stale. */
const IMMUTABLE = "public, max-age=31536000, immutable";

import { errorBody } from "./errors";

export type DocsBundleSource = () => Promise<string>;

interface DocsBundle {
  bytes: Uint8Array<ArrayBuffer>;
  /** Subresource Integrity value, `sha384-<base64>`. */
  integrity: string;
  etag: string;
  /** Short hash for the script URL. */
  version: string;
}

let source: DocsBundleSource | undefined;
let loaded: Promise<DocsBundle> | undefined;

/** Each runtime hands in where the bundle comes from (Node: node_modules; Workers: a module). */
export function provideDocsBundle(next: DocsBundleSource | undefined): void {
  source = next;
  loaded = undefined;
}

async function describe(text: string): Promise<DocsBundle> {
  const bytes = new TextEncoder().encode(text);
  const hash = base64url(await crypto.subtle.digest("SHA-384", bytes));
  // SRI takes standard base64 (48 bytes: no padding needed).
  const digest = hash.replaceAll("-", "+").replaceAll("_", "/");
  const version = digest.replace(/[^A-Za-z0-9]/g, "").slice(0, 16);
  return { bytes, integrity: `sha384-${digest}`, etag: `"${version}"`, version };
}

function loadDocsBundle(): Promise<DocsBundle> | undefined {
  if (!source) return undefined;
  if (!loaded) {
    const loading = source().then(describe);
    loaded = loading;
    // A failed read is not kept: the next request tries again.
    loading.catch(() => {
      if (loaded === loading) loaded = undefined;
    });
  }
  return loaded;
}

const unavailable = (c: Context<AppEnv>) =>
  c.json(errorBody(503, "The API reference page is not available on this server"), 503);

/** Whether If-None-Match names this tag (weak comparison, as for GET). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

async function serveScript(c: Context<AppEnv>) {
  const bundle = await loadDocsBundle();
  if (!bundle) return unavailable(c);
  c.header("Cache-Control", IMMUTABLE);
  c.header("ETag", bundle.etag);
  if (matches(c.req.header("If-None-Match"), bundle.etag)) return c.body(null, 304);
  // Compressed by the compression middleware, like any text: a cached year, so rarely.
  c.header("Content-Type", "text/javascript; charset=utf-8");
  return c.body(bundle.bytes);
}

/** Without the script (a runtime that provided none), the page still links the document. */
function pageWithoutScript(c: Context<AppEnv>, openApiPath: string) {
  return c.html(html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Trade assistant API</title></head>
<body>
<p>The interactive reference is not available on this server.
The OpenAPI document is at <a href="${openApiPath}">${openApiPath}</a>.</p>
</body>
</html>`);
}

async function servePage(c: Context<AppEnv>, openApiPath: string) {
  const bundle = await loadDocsBundle();
  if (!bundle) return pageWithoutScript(c, openApiPath);
  // Nothing from Scalar's servers: no fonts from fonts.scalar.com (withDefaultFonts), and no
  // "Ask AI" agent, which searches a registry at api.scalar.com through proxy.scalar.com.
  const options = JSON.stringify({
    url: openApiPath,
    withDefaultFonts: false,
    agent: { disabled: true },
  }).replaceAll("<", "\\u003c");
  return c.html(html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Trade assistant API</title>
</head>
<body>
<div id="app"></div>
<script src="${DOCS_SCRIPT_PATH}?v=${bundle.version}" integrity="${bundle.integrity}"></script>
<script>Scalar.createApiReference("#app", ${raw(options)});</script>
</body>
</html>`);
}

/** GET /docs (the reference page) and its script. */
export function mountApiDocs(app: Hono<AppEnv>, openApiPath: string) {
  app.get(DOCS_PATH, (c) => servePage(c, openApiPath));
  app.get(DOCS_SCRIPT_PATH, serveScript);
}
