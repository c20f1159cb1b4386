import { z } from "@hono/zod-openapi";

// Bounded: a nonce is stored for the timestamp window.
export const SignedQuery = z.object({
  signature: z.string().max(64).optional(),
  timestamp: z.string().max(20).optional(),
  nonce: z.string().max(64).optional(),
  openid: z.string().max(128).optional(),
  encrypt_type: z.string().max(16).optional(),
  msg_signature: z.string().max(64).optional(),
});

/** GET: the signed query plus the `echostr` to echo back. */
export const HandshakeQuery = SignedQuery.extend({ echostr: z.string().optional() });
