import { describe, expect, it, vi } from "vitest";
import { parseConfig } from "../../src/config";
import { LINK_PAGE_PATHS } from "../../src/modules/link-pages/routes";
import type { Mailer, MailMessage } from "../../src/providers/mail/types";
import { call, randomEmail, registerUser } from "../support/client";
import { createTestContext, PRODUCTION_ENV } from "../support/harness";

// The links the service builds without FRONTEND_URL name this server (PUBLIC_BASE_URL, else
// http://localhost:PORT): the built-in pages must answer there, not a JSON 404 (ADR 0092).
const sent: MailMessage[] = [];
const mailer: Mailer = {
  kind: "http",
  async send(message) {
    sent.push(message);
  },
};
const ctx = await createTestContext({ runtime: { mailer } });

const TOKEN = "tok_abcdefghijklmnopqrstuvwxyz0123456789";

/** Every script's and style's hash the CSP lists matches the one on the page, and only those. */
async function inlineHashes(html: string, tag: "script" | "style"): Promise<string[]> {
  const bodies = [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g"))].map(
    (m) => m[1]!,
  );
  return Promise.all(
    bodies.map(async (body) => {
      const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body));
      return `'sha256-${Buffer.from(digest).toString("base64")}'`;
    }),
  );
}

function directives(csp: string): Map<string, string> {
  return new Map(
    csp.split(";").map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name!, values.join(" ")];
    }),
  );
}

describe("built-in link pages without FRONTEND_URL", () => {
  it("serves each page as HTML under a strict CSP, sending no referrer", async () => {
    expect(LINK_PAGE_PATHS).toEqual([
      "/verify-email",
      "/reset-password",
      "/checkout/result",
      "/invite",
      "/register",
    ]);
    for (const path of LINK_PAGE_PATHS) {
      const res = await ctx.app.request(`${path}?token=${TOKEN}&order_no=ORD1&ref=ABCD1234`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toBe("text/html; charset=UTF-8");
      expect(res.headers.get("referrer-policy"), path).toBe("no-referrer");
      expect(res.headers.get("cache-control"), path).toBe("no-store");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      const html = await res.text();
      const csp = directives(res.headers.get("content-security-policy") ?? "");
      expect(csp.get("default-src"), path).toBe("'none'");
      expect(csp.get("connect-src"), path).toBe("'self'");
      expect(csp.get("frame-ancestors"), path).toBe("'none'");
      expect(csp.get("base-uri"), path).toBe("'none'");
      expect(csp.get("form-action"), path).toBe("'none'");
      expect(csp.get("require-trusted-types-for"), path).toBe("'script'");
      // Exactly the page's own inline script and style: no 'unsafe-inline', no nonce, no host.
      expect(csp.get("script-src"), path).toBe((await inlineHashes(html, "script")).join(" "));
      expect(csp.get("style-src"), path).toBe((await inlineHashes(html, "style")).join(" "));
      // Nothing from the request is in the page, least of all the token.
      expect(html, path).not.toContain(TOKEN);
      expect(html, path).not.toContain("ORD1");
      expect(html, path).not.toContain("ABCD1234");
      // No handler attributes (the CSP would block them anyway), nothing loaded from anywhere.
      expect(html, path).not.toMatch(/\son[a-z]+=/i);
      expect(html, path).not.toMatch(/\s(src|href)=/i);
      expect(html, path).toContain('<meta name="referrer" content="no-referrer">');
    }
  });

  it("puts nothing the caller sends into the page", async () => {
    const attack = encodeURIComponent('"><script>alert(1)</script>');
    const res = await ctx.app.request(`/register?ref=${attack}&token=${attack}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain("alert(1)");
    expect(html.match(/<script>/g)).toHaveLength(1);
  });

  it("the links in mails and the referral link land on these pages", async () => {
    const email = randomEmail();
    sent.length = 0;
    const user = await registerUser(ctx.app, { email });
    await vi.waitFor(() => expect(sent.find((m) => m.to === email)).toBeDefined());
    const verify = /http\S+verify-email\?token=[\w-]+/.exec(sent.find((m) => m.to === email)!.text);
    expect(verify?.[0]).toMatch(/^http:\/\/localhost:3000\/verify-email\?token=/);
    const forgot = await call(ctx.app, "/api/v1/auth/password/forgot", { json: { email } });
    expect(forgot.status).toBe(202);
    await vi.waitFor(() =>
      expect(sent.some((m) => /reset-password\?token=/.test(m.text))).toBe(true),
    );
    const reset = /http\S+reset-password\?token=[\w-]+/.exec(
      sent.find((m) => /reset-password/.test(m.text))!.text,
    );
    const referrals = await call(ctx.app, "/api/v1/referrals", { token: user.accessToken });
    expect(referrals.status).toBe(200);
    for (const link of [verify![0], reset![0], referrals.body.link as string]) {
      const url = new URL(link);
      expect(url.origin).toBe("http://localhost:3000");
      const page = await ctx.app.request(`${url.pathname}${url.search}`);
      expect(page.status, link).toBe(200);
      expect(page.headers.get("content-type"), link).toMatch(/^text\/html/);
    }
  });

  it("is not served when FRONTEND_URL names the web app: the API answers its JSON 404", async () => {
    const withFrontend = await ctx.makeApp({}, { FRONTEND_URL: "https://web.example.test" });
    for (const path of LINK_PAGE_PATHS) {
      const res = await withFrontend.request(path);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toMatchObject({ detail: "Not found" });
    }
  });
});

describe("production", () => {
  it("refuses to start without FRONTEND_URL, or with a plain-http one", () => {
    const { FRONTEND_URL: _, ...withoutFrontend } = PRODUCTION_ENV;
    expect(() => parseConfig(withoutFrontend)).toThrow(/FRONTEND_URL: required in production/);
    expect(() =>
      parseConfig({ ...PRODUCTION_ENV, FRONTEND_URL: "http://web.example.test" }),
    ).toThrow(/FRONTEND_URL: must be an https:\/\/ URL in production/);
    expect(() => parseConfig(PRODUCTION_ENV)).not.toThrow();
  });
});
