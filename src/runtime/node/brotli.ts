import { Duplex } from "node:stream";
import { constants, createBrotliCompress } from "node:zlib";
import type { BrotliEncoder } from "../../http/compression";

/**
 * Node's brotli for the compression middleware (Web CompressionStream has no "br" on Node 20).
 * Quality 4: responses are compressed per request, and brotli's default (11) costs tens of
 * milliseconds on the OpenAPI document where 4 still beats gzip's size.
 */
export const nodeBrotli: BrotliEncoder = () =>
  Duplex.toWeb(
    createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
  ) as unknown as ReadableWritablePair<Uint8Array, Uint8Array>;
