import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCALAR_BUNDLE } from "../../src/http/api-docs";
import { rawGet } from "../support/raw-get";
import { startWorker, TEST_BINDINGS, type Worker } from "../support/workerd";

/** The body as sent before encoding. */
function decoded(res: { headers: Record<string, string>; body: Buffer }): Buffer {
  const encoding = res.headers["content-encoding"];
  if (encoding === "gzip") return gunzipSync(res.body);
  if (encoding === "br") return brotliDecompressSync(res.body);
  return res.body;
}

/**
 * Miniflare, like Cloudflare's edge, asks the Worker for `br, gzip` whatever the client sent,
 * so bodies are read through their Content-Encoding.
 *
 * The bundled auth Worker in workerd serves /docs with Scalar's bundle read from its static
 * assets (wrangler.toml `[env.*.assets]`, the ASSETS binding: not a module of the script) and
 * caches and compresses the OpenAPI document. None of this touches the database, so the Worker
 * runs with an unreachable DATABASE_URL.
 */
describe("the /docs page and caching on Workers", () => {
  let scratch: string;
  let worker: Worker;
  let base: string;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "ta-worker-docs-"));
    worker = await startWorker(
      "auth",
      { ...TEST_BINDINGS, DATABASE_URL: "postgres://nobody@127.0.0.1:9/none" },
      join(scratch, "none.env"),
    );
    await worker.ready;
    base = (await worker.url).href.replace(/\/$/, "");
  });
  afterAll(async () => {
    await worker?.dispose();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it("serves the page and the npm package's bundle, pinned by its hash", async () => {
    const bundle = await readFile(createRequire(import.meta.url).resolve(SCALAR_BUNDLE));
    const page = await rawGet(`${base}/docs`);
    expect(page.status, page.body.toString().slice(0, 300)).toBe(200);
    const [, src, integrity] = /<script src="([^"]+)" integrity="([^"]+)"/.exec(
      decoded(page).toString(),
    )!;
    expect(integrity).toBe(`sha384-${createHash("sha384").update(bundle).digest("base64")}`);
    const script = await rawGet(`${base}${src}`, { "Accept-Encoding": "gzip" });
    expect(script.status).toBe(200);
    expect(script.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    // Compressed once, by workerd: never a second time over the app's own gzip.
    expect(script.headers["content-encoding"]).toMatch(/^(gzip|br)$/);
    expect(decoded(script).equals(bundle)).toBe(true);
  });

  it("never serves the assets directory itself: every request reaches the Worker", async () => {
    const direct = await rawGet(`${base}/standalone.js`);
    expect(direct.status).toBe(404);
    expect(decoded(direct).toString()).not.toContain("Scalar");
  });

  it("caches and gzips the OpenAPI document", async () => {
    const res = await rawGet(`${base}/api/v1/openapi.json`, { "Accept-Encoding": "gzip" });
    expect(res.status, JSON.stringify(res.headers)).toBe(200);
    expect(res.headers["cache-control"]).toMatch(/^public, max-age=\d+$/);
    expect(res.headers["content-encoding"]).toMatch(/^(gzip|br)$/);
    expect(JSON.parse(decoded(res).toString()).openapi).toBe("3.1.0");
    const again = await rawGet(`${base}/api/v1/openapi.json`, {
      "If-None-Match": res.headers.etag!,
    });
    expect(again.status).toBe(304);
  });
});
