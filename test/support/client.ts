import type { App } from "../../src/app";
import type { paths } from "../types/openapi-paths";
import { checkResponse } from "./contract";

let counter = 0;
const unique = () =>
  `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

export const randomEmail = () => `seller-${unique()}@example.com`;
/** A distinct client address per test keeps per-IP budgets apart (TRUST_PROXY=1 in tests). */
export const randomIp = () =>
  `203.0.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;

export interface CallOptions {
  method?: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  token?: string;
  csrf?: string;
  cookies?: Record<string, string>;
  ip?: string;
}

export async function call(app: App, path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.ip) headers["X-Forwarded-For"] = options.ip;
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.csrf) headers["X-CSRF-Token"] = options.csrf;
  if (options.cookies) {
    headers.Cookie = Object.entries(options.cookies)
      .map(([k, v]) => `${k}=${v}`)
      .join("; ");
  }
  let body = options.body;
  if (options.json !== undefined) {
    headers["Content-Type"] ??= "application/json";
    body = JSON.stringify(options.json);
  }
  const res = await app.request(path, {
    method: options.method ?? (body === undefined ? "GET" : "POST"),
    headers,
    body,
  });
  const text = await res.text();
  let data: any;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = text;
  }
  await checkResponse(options.method ?? (body === undefined ? "GET" : "POST"), path, res, data);
  return { res, status: res.status, body: data, cookies: parseSetCookies(res) };
}

function parseSetCookies(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const index = pair!.indexOf("=");
    out[pair!.slice(0, index).trim()] = decodeURIComponent(pair!.slice(index + 1));
  }
  return out;
}

export interface Session {
  email: string;
  password: string;
  ip: string;
  accessToken: string;
  refreshToken: string;
  csrfToken: string;
  userId: string;
  body: any;
}

export async function registerUser(
  app: App,
  overrides: {
    email?: string;
    password?: string;
    ip?: string;
    name?: string;
    referral_code?: string;
  } = {},
): Promise<Session> {
  const email = overrides.email ?? randomEmail();
  const password = overrides.password ?? "correct horse battery";
  const ip = overrides.ip ?? randomIp();
  const { status, body } = await call(app, "/api/v1/auth/register", {
    json: { email, password, name: overrides.name, referral_code: overrides.referral_code },
    ip,
  });
  if (status !== 201) throw new Error(`register failed: ${status} ${JSON.stringify(body)}`);
  return {
    email,
    password,
    ip,
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    csrfToken: body.csrf_token,
    userId: body.user.id,
    body,
  };
}

// ---------------------------------------------------------------------------------------------
// The typed client: `api(app).get("/api/v1/customers/{id}", { params: { id }, token })` answers
// `{ status, body }` typed by the OpenAPI document (test/types/openapi-paths.ts): a union over the
// documented statuses, each with its body. `expectStatus(answer, 200)` asserts the status and
// narrows the body, so `answer.body.company` only compiles while the document has that field.
// A path not in the document (or a deliberately invalid body) goes through `call()`, untyped.
// docs/adr/0095-faster-typed-test-loop.md.

type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/** The documented paths that answer method `M`. */
type PathsWith<M extends HttpMethod> = {
  [P in keyof paths]: paths[P] extends Record<M, object> ? P : never;
}[keyof paths];

export type Operation<P extends keyof paths, M extends HttpMethod> = NonNullable<paths[P][M]>;
type Responses<O> = O extends { responses: infer R } ? R : never;
type Content<R> = R extends { content: infer C } ? C : never;
/** JSON when the answer is JSON, else the text or bytes `call()` hands back; nothing for a 204. */
type BodyOf<R> = [Content<R>] extends [never]
  ? undefined
  : Content<R> extends { "application/json": infer J }
    ? J
    : unknown;

/** One documented answer of the operation: its status, and the body that status carries. */
type ApiAnswer<O> = {
  [S in keyof Responses<O>]: {
    status: S;
    body: BodyOf<Responses<O>[S]>;
    res: Response;
    cookies: Record<string, string>;
  };
}[keyof Responses<O>];

type PathParams<O> = O extends { parameters: { path: infer X } } ? X : never;
type QueryParams<O> = O extends { parameters: { query?: infer Q } } ? Q : never;
type JsonBody<O> = O extends { requestBody?: { content: { "application/json": infer B } } }
  ? B
  : never;

export type ApiOptions<O> = Omit<CallOptions, "method" | "json"> & {
  /** Values for the `{name}` segments of the path. */
  params?: PathParams<O>;
  query?: QueryParams<O>;
  json?: JsonBody<O>;
};

type Send<M extends HttpMethod> = <P extends PathsWith<M>>(
  path: P,
  options?: ApiOptions<Operation<P, M>>,
) => Promise<ApiAnswer<Operation<P, M>>>;

export function api(app: App): { [M in HttpMethod]: Send<M> } {
  const send =
    <M extends HttpMethod>(method: M): Send<M> =>
    async (path, options = {}) => {
      const { params, query, ...rest } = options as ApiOptions<unknown> & {
        params?: Record<string, string | number>;
        query?: Record<string, unknown>;
      };
      let url: string = path.replace(/\{(\w+)\}/g, (_, name: string) => {
        const value = params?.[name];
        if (value === undefined) throw new Error(`api(): no value for {${name}} in ${path}`);
        return encodeURIComponent(String(value));
      });
      const search = new URLSearchParams();
      for (const [key, value] of Object.entries(query ?? {})) {
        if (value === undefined) continue;
        for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
      }
      if (search.size > 0) url += `?${search}`;
      const answer = await call(app, url, { ...rest, method: method.toUpperCase() });
      return answer as never;
    };
  return {
    get: send("get"),
    post: send("post"),
    put: send("put"),
    patch: send("patch"),
    delete: send("delete"),
  };
}

/** Fails the test unless the answer has `status`; narrows `answer.body` to that status's body. */
export function expectStatus<
  A extends { status: PropertyKey; body: unknown },
  S extends A["status"],
>(answer: A, status: S): asserts answer is Extract<A, { status: S }> {
  if (answer.status !== status) {
    throw new Error(
      `expected status ${String(status)}, got ${String(answer.status)}: ${JSON.stringify(answer.body)}`,
    );
  }
}
