import type { App } from "../../src/app";
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
