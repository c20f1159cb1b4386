import type { MiddlewareHandler } from "hono";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/utils/compress";

/** A fresh brotli encoder per response; CompressionStream has no "br" on Node 20 or workerd. */
export type BrotliEncoder = () => ReadableWritablePair<Uint8Array, Uint8Array>;

export interface CompressionOptions {
  /** Bodies smaller than this many bytes go out as they are. */
  threshold?: number;
  /** The runtime's brotli (Node: zlib); without it only gzip is offered. */
  brotli?: BrotliEncoder;
  /**
   * The runtime encodes the body itself once the response names a Content-Encoding (Workers:
   * workerd gzips or brotlis it, and would compress an already compressed body a second time).
   */
  runtimeEncodes?: boolean;
}

type Encoding = "br" | "gzip";

const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;
const JSON_TYPE = /^\s*application\/(?:[\w.+-]+\+)?json(?:[;\s]|$)/i;

/** The client's preferred encoding we can produce (q-values honoured, br first on a tie). */
function chooseEncoding(header: string, brotli: boolean): Encoding | undefined {
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q ? Number(q.slice(2)) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: Encoding) => weights.get(name) ?? weights.get("*") ?? 0;
  const candidates: Encoding[] = brotli ? ["br", "gzip"] : ["gzip"];
  let best: Encoding | undefined;
  for (const encoding of candidates) {
    if (weightOf(encoding) > 0 && (!best || weightOf(encoding) > weightOf(best))) best = encoding;
  }
  return best;
}

/** The encoded bytes differ from the ones a strong tag names. */
function weakenEtag(headers: Headers) {
  const etag = headers.get("ETag");
  if (etag && !etag.startsWith("W/")) headers.set("ETag", `W/${etag}`);
}

function addVary(headers: Headers, name: string) {
  const current = headers.get("Vary");
  if (current === "*") return;
  if (
    current
      ?.toLowerCase()
      .split(/\s*,\s*/)
      .includes(name.toLowerCase())
  )
    return;
  headers.set("Vary", current ? `${current}, ${name}` : name);
}

/** The response's Content-Type when it may be compressed here, else null. */
function compressibleType(res: Response): string | null {
  const type = res.headers.get("Content-Type");
  if (!res.body || !type || !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type)) return null;
  if (res.status === 204 || res.status === 206 || res.status === 304) return null;
  if (res.headers.has("Content-Encoding") || res.headers.has("Transfer-Encoding")) return null;
  if (NO_TRANSFORM.test(res.headers.get("Cache-Control") ?? "")) return null;
  return type;
}

/** Headers of a body now sent in `encoding`: no length, the encoding, a weak ETag. */
function markEncoded(headers: Headers, encoding: Encoding): void {
  headers.delete("Content-Length");
  headers.set("Content-Encoding", encoding);
  weakenEtag(headers);
}

/** The body as it is; with `encoding`, marked for the runtime to encode (runtimeEncodes). */
function unencoded(
  res: Response,
  body: ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer>,
  encoding: Encoding | undefined,
): Response {
  const out = body === res.body ? res : new Response(body, res);
  if (encoding) markEncoded(out.headers, encoding);
  return out;
}

/**
 * gzip (and brotli where the runtime has it) for text and JSON bodies of at least `threshold`
 * bytes. Never touches event streams (the regex leaves out text/event-stream: a compressor
 * buffers, and an SSE client would see events late), bodies already encoded, or formats that
 * are compressed already (xlsx and pdf are not in the regex). A request without Accept-Encoding
 * skips all of it: reading the response here would move @hono/node-server off its fast path,
 * and load tests and server-to-server clients rarely ask for compression.
 */
export function compression(options: CompressionOptions = {}): MiddlewareHandler {
  const threshold = options.threshold ?? 1024;
  const brotli = options.brotli;
  const runtimeEncodes = options.runtimeEncodes ?? false;
  return async function compression(c, next) {
    const accepted = c.req.header("Accept-Encoding");
    await next();
    if (!accepted || c.req.method === "HEAD") return;
    const res = c.res;
    const type = compressibleType(res);
    if (!type || !res.body) return;
    addVary(res.headers, "Accept-Encoding");
    let body: ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer> = res.body;
    const length = res.headers.get("Content-Length");
    if (length !== null) {
      if (Number(length) < threshold) return;
    } else if (JSON_TYPE.test(type)) {
      // A JSON body is built in memory anyway: measuring it costs a copy, not a stream.
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (bytes.byteLength < threshold) {
        c.res = new Response(bytes, res);
        return;
      }
      body = bytes;
    }
    const encoding = chooseEncoding(accepted, runtimeEncodes || brotli !== undefined);
    if (!encoding || runtimeEncodes) {
      c.res = undefined;
      c.res = unencoded(res, body, encoding);
      return;
    }
    const source = body instanceof Uint8Array ? new Response(body).body! : body;
    const encoder = encoding === "br" ? brotli!() : new CompressionStream("gzip");
    const compressed = new Response(
      source.pipeThrough(encoder as ReadableWritablePair<Uint8Array, Uint8Array>),
      res,
    );
    markEncoded(compressed.headers, encoding);
    c.res = undefined;
    c.res = compressed;
  };
}
