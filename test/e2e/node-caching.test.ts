import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startNodeServer } from "../support/node-server";
import { rawGet } from "../support/raw-get";

const dataDir = await mkdtemp(join(tmpdir(), "ta-e2e-caching-"));
let server: RunningServer;
beforeAll(async () => {
  server = await startNodeServer({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe("caching and compression through the Node listener", () => {
  it("the OpenAPI document: public cache, ETag, 304, brotli or gzip as asked", async () => {
    const plain = await rawGet(`${server.url}/api/v1/openapi.json`);
    expect(plain.status).toBe(200);
    // The listener writes no-store on every response; the app's own Cache-Control wins here.
    expect(plain.headers["cache-control"]).toMatch(/^public, max-age=\d+$/);
    expect(plain.headers["x-content-type-options"]).toBe("nosniff");
    const etag = plain.headers.etag!;
    expect(etag).toMatch(/^"[^"]+"$/);

    const br = await rawGet(`${server.url}/api/v1/openapi.json`, {
      "Accept-Encoding": "gzip, deflate, br",
    });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length / 4);

    const gzip = await rawGet(`${server.url}/api/v1/openapi.json`, { "Accept-Encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);

    const notModified = await rawGet(`${server.url}/api/v1/openapi.json`, {
      "If-None-Match": br.headers.etag!,
      "Accept-Encoding": "br",
    });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    expect(notModified.headers["cache-control"]).toMatch(/^public/);
  });

  it("the package and plan lists are cacheable; the rest stays no-store", async () => {
    for (const path of ["/api/v1/credits/packages", "/api/v1/credits/plans"]) {
      const res = await rawGet(`${server.url}${path}`);
      expect(res.headers["cache-control"], path).toMatch(/^public, max-age=\d+$/);
      const again = await rawGet(`${server.url}${path}`, { "If-None-Match": res.headers.etag! });
      expect(again.status, path).toBe(304);
    }
    for (const path of ["/api/v1/auth/me", "/health/ready", "/nope"]) {
      const res = await rawGet(`${server.url}${path}`, { "Accept-Encoding": "gzip" });
      expect(res.headers["cache-control"], path).toBe("no-store");
      expect(res.headers.etag, path).toBeUndefined();
    }
  });

  it("serves /docs and its script from the app, no CDN", async () => {
    const page = await rawGet(`${server.url}/docs`);
    expect(page.status).toBe(200);
    const src = /<script src="([^"]+)"/.exec(page.body.toString())![1]!;
    expect(src.startsWith("/docs/")).toBe(true);
    const script = await rawGet(`${server.url}${src}`, { "Accept-Encoding": "gzip" });
    expect(script.status).toBe(200);
    expect(script.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(script.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(script.body).toString()).toContain("createApiReference");
  });
});
