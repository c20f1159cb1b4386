import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake Stripe API on 127.0.0.1 speaking enough of the REST wire protocol for stripe-node:
 * form-encoded POST bodies (`line_items[0][price_data][unit_amount]=...`), `Authorization: Bearer`
 * with the secret key, `Idempotency-Key` replay (same key + same request = the same object,
 * `Idempotent-Replayed: true`; same key + different parameters = 400 idempotency_error), JSON
 * answers and `{error: {type, message, code?, param?}}` errors.
 *
 * Endpoints: `POST /v1/checkout/sessions`, `POST /v1/refunds`. Controls build webhook events and
 * sign them as Stripe does: `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, t.payload)>`.
 */

const FAKE_STRIPE_SECRET_KEY = "sk_test_fake0123456789abcdefghijklmnop";
const FAKE_STRIPE_WEBHOOK_SECRET = "whsec_fake0123456789abcdefghijklmnopqrstu";

/** How the fake misbehaves instead of answering normally (null restores normal answers). */
type FakeStripeFailure = "500" | "hang" | null;

interface FakeStripeRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  /** The form body exactly as decoded: flat bracketed keys, e.g. `metadata[order_no]`. */
  form: Record<string, string>;
}

interface SignedWebhook {
  payload: string;
  /** The value of the `Stripe-Signature` header. */
  header: string;
}

interface SignOptions {
  /** Unix seconds; default now. */
  timestamp?: number;
  /** Default the fake's webhook secret. */
  secret?: string;
}

export interface FakeStripe {
  /** For `apiBase`. */
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** Every request received, in order (including ones answered with an error). */
  requests: FakeStripeRequest[];
  /** Checkout sessions created, by id (as Stripe would return them now). */
  sessions: Map<string, Record<string, unknown>>;
  refunds: Map<string, Record<string, unknown>>;
  /** Marks the session paid and returns a signed `checkout.session.completed` event. */
  completeSession(id: string, opts?: SignOptions): SignedWebhook;
  /** Marks the session expired and returns a signed `checkout.session.expired` event. */
  expireSession(id: string, opts?: SignOptions): SignedWebhook;
  /** A signed `charge.refunded` event for the charge behind this refund. */
  chargeRefunded(refundId: string, opts?: SignOptions): SignedWebhook;
  /** Signs any payload as Stripe would. */
  sign(payload: string, opts?: SignOptions): string;
  /** Makes every following API request fail this way (null restores normal answers). */
  fail(mode: FakeStripeFailure): void;
  close(): Promise<void>;
}

interface PaymentIntentState {
  id: string;
  chargeId: string;
  amount: number;
  currency: string;
  amountRefunded: number;
  orderNo: string | undefined;
}

interface StoredIdempotent {
  fingerprint: string;
  status: number;
  body: unknown;
}

function id(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("hex")}`;
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function stripeError(
  type: string,
  message: string,
  extra: { code?: string; param?: string } = {},
): { error: Record<string, unknown> } {
  return { error: { type, message, ...extra } };
}

export async function startFakeStripe(
  opts: { secretKey?: string; webhookSecret?: string } = {},
): Promise<FakeStripe> {
  const secretKey = opts.secretKey ?? FAKE_STRIPE_SECRET_KEY;
  const webhookSecret = opts.webhookSecret ?? FAKE_STRIPE_WEBHOOK_SECRET;
  const requests: FakeStripeRequest[] = [];
  const sessions = new Map<string, Record<string, unknown>>();
  const refunds = new Map<string, Record<string, unknown>>();
  const paymentIntents = new Map<string, PaymentIntentState>();
  const idempotent = new Map<string, StoredIdempotent>();
  let failure: FakeStripeFailure = null;

  function send(res: ServerResponse, status: number, body: unknown, replayed = false): void {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "request-id": id("req"),
      "stripe-version": "2026-01-01",
    };
    if (replayed) headers["idempotent-replayed"] = "true";
    res.writeHead(status, headers);
    res.end(JSON.stringify(body));
  }

  function createSession(form: Record<string, string>): [number, unknown] {
    if (form.mode !== "payment") {
      return [400, stripeError("invalid_request_error", "Invalid mode", { param: "mode" })];
    }
    const unitAmount = Number(form["line_items[0][price_data][unit_amount]"]);
    const quantity = Number(form["line_items[0][quantity]"] ?? "1");
    const currency = form["line_items[0][price_data][currency]"];
    if (!Number.isInteger(unitAmount) || unitAmount <= 0 || !currency) {
      return [
        400,
        stripeError("invalid_request_error", "Missing required param: line_items[0][price_data].", {
          code: "parameter_missing",
          param: "line_items[0][price_data]",
        }),
      ];
    }
    const expiresAt =
      form.expires_at !== undefined ? Number(form.expires_at) : nowSeconds() + 86400;
    const lifetime = expiresAt - nowSeconds();
    if (!Number.isInteger(expiresAt) || lifetime < 30 * 60 || lifetime > 24 * 3600) {
      return [
        400,
        stripeError(
          "invalid_request_error",
          "The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.",
          { param: "expires_at" },
        ),
      ];
    }
    const metadata: Record<string, string> = {};
    for (const [key, value] of Object.entries(form)) {
      const m = /^metadata\[(.+)\]$/.exec(key);
      if (m?.[1]) metadata[m[1]] = value;
    }
    const sessionId = `cs_test_${randomBytes(24).toString("hex")}`;
    const session: Record<string, unknown> = {
      id: sessionId,
      object: "checkout.session",
      amount_subtotal: unitAmount * quantity,
      amount_total: unitAmount * quantity,
      cancel_url: form.cancel_url ?? null,
      client_reference_id: form.client_reference_id ?? null,
      created: nowSeconds(),
      currency,
      customer_email: form.customer_email ?? null,
      expires_at: expiresAt,
      livemode: false,
      metadata,
      mode: "payment",
      payment_intent: null,
      payment_status: "unpaid",
      status: "open",
      success_url: form.success_url ?? null,
      url: `https://checkout.stripe.com/c/pay/${sessionId}`,
    };
    sessions.set(sessionId, session);
    return [200, session];
  }

  function createRefund(form: Record<string, string>): [number, unknown] {
    const piId = form.payment_intent;
    const pi = piId ? paymentIntents.get(piId) : undefined;
    if (!pi) {
      return [
        400,
        stripeError("invalid_request_error", `No such payment_intent: '${piId ?? ""}'`, {
          code: "resource_missing",
          param: "payment_intent",
        }),
      ];
    }
    const amount = form.amount !== undefined ? Number(form.amount) : pi.amount - pi.amountRefunded;
    if (!Number.isInteger(amount) || amount <= 0 || amount > pi.amount - pi.amountRefunded) {
      return [
        400,
        stripeError(
          "invalid_request_error",
          `Refund amount (${amount}) is greater than unrefunded amount on charge (${pi.amount - pi.amountRefunded})`,
          { code: "amount_too_large", param: "amount" },
        ),
      ];
    }
    pi.amountRefunded += amount;
    const metadata: Record<string, string> = {};
    for (const [key, value] of Object.entries(form)) {
      const m = /^metadata\[(.+)\]$/.exec(key);
      if (m?.[1]) metadata[m[1]] = value;
    }
    const refund: Record<string, unknown> = {
      id: id("re"),
      object: "refund",
      amount,
      charge: pi.chargeId,
      created: nowSeconds(),
      currency: pi.currency,
      metadata,
      payment_intent: pi.id,
      reason: null,
      status: "succeeded",
    };
    refunds.set(refund.id as string, refund);
    return [200, refund];
  }

  function handle(req: IncomingMessage, res: ServerResponse, rawBody: string): void {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const form = Object.fromEntries(new URLSearchParams(rawBody));
    requests.push({ method: req.method ?? "", path: url.pathname, headers: req.headers, form });

    if (failure === "hang") return; // never answers; the client's timeout must fire
    if (failure === "500") {
      send(res, 500, stripeError("api_error", "An unknown error occurred"));
      return;
    }

    const auth = req.headers.authorization ?? "";
    const key = auth.startsWith("Bearer ") ? auth.slice(7) : "";
    if (key !== secretKey) {
      // Stripe masks all but the last four characters; the fake echoes the whole key on purpose so
      // a client that forwarded Stripe's message would be caught leaking it.
      send(
        res,
        401,
        stripeError(
          "invalid_request_error",
          key ? `Invalid API Key provided: ${key}` : "You did not provide an API key.",
        ),
      );
      return;
    }

    let route: ((form: Record<string, string>) => [number, unknown]) | undefined;
    if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") route = createSession;
    else if (req.method === "POST" && url.pathname === "/v1/refunds") route = createRefund;
    if (!route) {
      send(
        res,
        404,
        stripeError(
          "invalid_request_error",
          `Unrecognized request URL (${req.method}: ${url.pathname}).`,
        ),
      );
      return;
    }

    const idempotencyKey = req.headers["idempotency-key"];
    const fingerprint = `${req.method} ${url.pathname} ${rawBody}`;
    if (typeof idempotencyKey === "string" && idempotencyKey) {
      const stored = idempotent.get(idempotencyKey);
      if (stored) {
        if (stored.fingerprint !== fingerprint) {
          send(
            res,
            400,
            stripeError(
              "idempotency_error",
              `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            ),
          );
          return;
        }
        send(res, stored.status, stored.body, true);
        return;
      }
    }
    const [status, body] = route(form);
    if (typeof idempotencyKey === "string" && idempotencyKey) {
      idempotent.set(idempotencyKey, { fingerprint, status, body });
    }
    send(res, status, body);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => handle(req, res, Buffer.concat(chunks).toString("utf8")));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  function sign(payload: string, signOpts: SignOptions = {}): string {
    const t = signOpts.timestamp ?? nowSeconds();
    const v1 = createHmac("sha256", signOpts.secret ?? webhookSecret)
      .update(`${t}.${payload}`, "utf8")
      .digest("hex");
    return `t=${t},v1=${v1}`;
  }

  function event(type: string, object: Record<string, unknown>, signOpts?: SignOptions) {
    const payload = JSON.stringify(
      {
        id: id("evt"),
        object: "event",
        api_version: "2026-01-01",
        created: nowSeconds(),
        data: { object },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
      },
      null,
      2, // Stripe delivers pretty-printed JSON; the signature covers these exact bytes
    );
    return { payload, header: sign(payload, signOpts) };
  }

  function sessionOrThrow(sessionId: string): Record<string, unknown> {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`fake Stripe: no such checkout session ${sessionId}`);
    return session;
  }

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    webhookSecret,
    requests,
    sessions,
    refunds,
    completeSession(sessionId, signOpts) {
      const session = sessionOrThrow(sessionId);
      if (session.payment_intent === null) {
        const pi: PaymentIntentState = {
          id: id("pi"),
          chargeId: id("ch"),
          amount: session.amount_total as number,
          currency: session.currency as string,
          amountRefunded: 0,
          orderNo: (session.metadata as Record<string, string>).order_no,
        };
        paymentIntents.set(pi.id, pi);
        session.payment_intent = pi.id;
      }
      session.status = "complete";
      session.payment_status = "paid";
      return event("checkout.session.completed", { ...session }, signOpts);
    },
    expireSession(sessionId, signOpts) {
      const session = sessionOrThrow(sessionId);
      session.status = "expired";
      session.url = null;
      return event("checkout.session.expired", { ...session }, signOpts);
    },
    chargeRefunded(refundId, signOpts) {
      const refund = refunds.get(refundId);
      const pi = refund ? paymentIntents.get(refund.payment_intent as string) : undefined;
      if (!refund || !pi) throw new Error(`fake Stripe: no such refund ${refundId}`);
      return event(
        "charge.refunded",
        {
          id: pi.chargeId,
          object: "charge",
          amount: pi.amount,
          amount_captured: pi.amount,
          amount_refunded: pi.amountRefunded,
          currency: pi.currency,
          // Checkout copies payment_intent_data.metadata to the PaymentIntent and its charge.
          metadata: pi.orderNo !== undefined ? { order_no: pi.orderNo } : {},
          paid: true,
          payment_intent: pi.id,
          refunded: pi.amountRefunded === pi.amount,
          status: "succeeded",
        },
        signOpts,
      );
    },
    sign,
    fail(mode) {
      failure = mode;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections(); // keep-alive and hung requests would hold close() open
      });
    },
  };
}
