import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { provideDocsBundle, SCALAR_BUNDLE } from "../../src/http/api-docs";
import { nodeDocsBundle } from "../../src/runtime/node/docs-bundle";
import { createTestContext } from "../support/harness";

const { app } = await createTestContext();
const bundle = await readFile(createRequire(import.meta.url).resolve(SCALAR_BUNDLE));
provideDocsBundle(nodeDocsBundle);
afterAll(() => provideDocsBundle(undefined));

async function scriptOfPage() {
  const page = await app.request("/docs");
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toMatch(/^text\/html/);
  const html = await page.text();
  const tag = /<script src="([^"]+)" integrity="([^"]+)"><\/script>/.exec(html);
  expect(tag, html).not.toBeNull();
  return { html, src: tag![1]!, integrity: tag![2]! };
}

describe("GET /docs", () => {
  it("loads Scalar from the app itself, pinned by Subresource Integrity", async () => {
    const { html, src, integrity } = await scriptOfPage();
    expect(src).toMatch(/^\/docs\/scalar-standalone\.js\?v=\w+$/);
    expect(integrity).toBe(`sha384-${createHash("sha384").update(bundle).digest("base64")}`);
    // Nothing from another host: no CDN script, no font service.
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).toContain('"url":"/api/v1/openapi.json"');
    expect(html).toContain('"withDefaultFonts":false');
    expect(html).toContain('"agent":{"disabled":true}');
  });

  it("serves the npm package's bundle with a year's cache, an ETag and 304", async () => {
    const { src } = await scriptOfPage();
    const res = await app.request(src);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"\w+"$/);
    expect(Buffer.from(await res.arrayBuffer()).equals(bundle)).toBe(true);

    const again = await app.request(src, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");

    const gzip = await app.request(src, { headers: { "Accept-Encoding": "gzip, br" } });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    const bytes = Buffer.from(await gzip.arrayBuffer());
    expect(bytes.length).toBeLessThan(bundle.length / 2);
    expect(gunzipSync(bytes).equals(bundle)).toBe(true);
  });

  it("without a bundle from the runtime, the page links the OpenAPI document instead", async () => {
    provideDocsBundle(undefined);
    try {
      const page = await app.request("/docs");
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).not.toContain("<script");
      expect(html).toContain('<a href="/api/v1/openapi.json">');
      expect((await app.request("/docs/scalar-standalone.js")).status).toBe(503);
    } finally {
      provideDocsBundle(nodeDocsBundle);
    }
  });
});
