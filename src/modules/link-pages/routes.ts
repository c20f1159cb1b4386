import type { Context, Hono } from "hono";
import type { Config } from "../../config";
import type { AppEnv } from "../../http/env";
import { LINK_PAGES, type LinkPage, pageScript, STYLE } from "./pages";

/**
 * GET /verify-email, /reset-password, /checkout/result, /invite and /register: the pages the
 * mailed links, the payment return and the referral link name when FRONTEND_URL is unset (then
 * they are built on this server's own address, src/modules/account/links.ts). Not API
 * operations: HTML for a browser, outside the OpenAPI document. ADR 0092.
 */
export const LINK_PAGE_PATHS: readonly string[] = LINK_PAGES.map((page) => page.path);

/** Whether this server serves them: only when no web app of its own takes the links. */
export const linkPagesServed = (config: Pick<Config, "FRONTEND_URL">): boolean =>
  !config.FRONTEND_URL;

async function sha256Source(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  let binary = "";
  for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte);
  return `'sha256-${btoa(binary)}'`;
}

interface BuiltPage {
  html: string;
  csp: string;
}

/**
 * Scripts and the style run only when their hash is listed (no nonce to keep per request, no
 * 'unsafe-inline', no handler attribute can run); the page may call its own origin only, load
 * nothing, be framed by nobody, and submit no form natively (the script posts JSON). Trusted
 * Types are required: the scripts write text, never markup.
 */
async function build(page: LinkPage): Promise<BuiltPage> {
  const script = pageScript(page);
  const csp = [
    "default-src 'none'",
    `script-src ${await sha256Source(script)}`,
    `style-src ${await sha256Source(STYLE)}`,
    "connect-src 'self'",
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join("; ");
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${page.title}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${page.body}
</main>
<script>${script}</script>
</body>
</html>
`;
  return { html, csp };
}

const built = new Map<string, Promise<BuiltPage>>();

function builtPage(page: LinkPage): Promise<BuiltPage> {
  let entry = built.get(page.path);
  if (!entry) {
    entry = build(page);
    built.set(page.path, entry);
  }
  return entry;
}

async function servePage(c: Context<AppEnv>, page: LinkPage) {
  const { html, csp } = await builtPage(page);
  c.header("Content-Security-Policy", csp);
  // The address carries a token until the script takes it out: sent to nobody.
  c.header("Referrer-Policy", "no-referrer");
  c.header("Cache-Control", "no-store");
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Cross-Origin-Opener-Policy", "same-origin");
  return c.html(html);
}

/** Mounts the pages (the caller checks linkPagesServed first). */
export function mountLinkPages(app: Hono<AppEnv>): void {
  for (const page of LINK_PAGES) app.get(page.path, (c) => servePage(c, page));
}
