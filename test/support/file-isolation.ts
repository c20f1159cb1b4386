import { afterAll, vi } from "vitest";

// The unit and HTTP projects run with `isolate: false` (vitest.config.ts): the files of one
// worker share a process and its loaded modules, which saves the seconds every file spent
// importing hono, zod, drizzle, PGlite, Stripe, pdf-lib, exceljs... again. What a file can change
// in that process it must give back, and this setup file (run before every file) makes sure:
// - process.env: put back as it was when the file started (the project's own `env` included);
// - fake timers or a faked system clock left on fail the file that left them, then are undone;
// - stubbed globals and env vars (vi.stubGlobal / vi.stubEnv) are undone after each test by the
//   config's unstubGlobals / unstubEnvs; vitest itself restores spies after every file.
// Module-level state in src is caches keyed by the objects a file builds (WeakMaps on deps, db,
// logger) or read-only tables; no test uses vi.mock. docs/adr/0095-faster-typed-test-loop.md.
const env = { ...process.env };

afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  Object.assign(process.env, env);
  if (vi.isFakeTimers()) {
    vi.useRealTimers();
    throw new Error("this file left fake timers on: call vi.useRealTimers() in its own afterAll");
  }
});
