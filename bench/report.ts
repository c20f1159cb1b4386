import { cpus } from "node:os";
import {
  BILLING_POOL_SIZE,
  BILLING_WORKERS,
  type BillingResult,
  PGBENCH_CLIENTS,
  PGBENCH_SCALE,
  PGBENCH_THREADS,
} from "./billing";
import {
  IMPORT_ROWS,
  IMPORT_RUNS,
  LIST_CUSTOMERS,
  LIST_PATH,
  LIST_SIZE,
  mb,
  type SeedResult,
} from "./customers";
import { type ExtractionResult, renderExtraction } from "./extraction";
import { fmt, ms, table } from "./format";
import { CONNECTIONS, DURATION_S, type LoadSummary, median, RUNS, WARMUP_S } from "./load";
import { type PdfResult, pdfReport } from "./pdf";
import { renderScale } from "./scale-report";
import type { ImportScenarioResult } from "./scenarios/import";
import type { LoadResult, LoginResult } from "./scenarios/load";
import type { RoundTripsResult } from "./scenarios/round-trips";
import type { ScaleResult } from "./scenarios/scale";
import type { ScalingResult } from "./scenarios/scaling";
import type { ScheduledResult } from "./scenarios/scheduled";
import type { StartupResult } from "./scenarios/startup";
import type { StatementsResult } from "./scenarios/statements";
import type { TeamListResult } from "./scenarios/teams";
import type { WorkersResult } from "./scenarios/workers";
import { renderScheduled } from "./scheduled-report";
import type { SessionCheckResult } from "./session-check";
import { SETTINGS } from "./settings";
import { renderTeamList } from "./teams-report";
import { renderWorkers } from "./workers-report";

const {
  users: USERS,
  poolSize: POOL_SIZE,
  hashConcurrency: HASH_CONCURRENCY,
  roundTripRequests: ROUND_TRIP_REQUESTS,
  roundTripLogins: ROUND_TRIP_LOGINS,
  roundTripLists: ROUND_TRIP_LISTS,
  startupRuns: STARTUP_RUNS,
  aims: AIMS,
} = SETTINGS;

/** About the run itself and what the set-up found, for the report's header and notes. */
interface RunInfo {
  startedAt: Date;
  durationS: number;
  loadavgStart: number[];
  loadavgEnd: number[];
  pgVersion: string;
  dbName: string;
  rateLimiter: "redis" | "memory";
  /** PostgreSQL-backed app: spawn to ready, migrations included. */
  appReadyMs: number;
  /** The app's /health body and content type (the ceiling serves the same). */
  health: { text: string; contentType: string };
  /** Whether the /me ceiling answers with the same keys as the app. */
  sameShape: boolean;
  seed: SeedResult;
  listBytes: number;
  /** Whether the list ceiling's body is byte-identical to the app's. */
  listCeilingSameBody: boolean;
}

/** Every scenario's result, in the order they run. */
export interface BenchResults {
  run: RunInfo;
  load: LoadResult;
  sessionCheck: SessionCheckResult;
  statements: StatementsResult;
  login: LoginResult;
  customerImport: ImportScenarioResult;
  roundTrips: RoundTripsResult;
  billing: BillingResult;
  pdf: PdfResult;
  startup: StartupResult;
  workers: WorkersResult;
  scale: ScaleResult;
  scheduled: ScheduledResult;
  scaling: ScalingResult;
  teamList: TeamListResult;
  extraction: ExtractionResult;
}

/** The ratios and verdicts both the text report and the JSON carry. */
export function derive(r: BenchResults) {
  const { healthApp, healthCeiling, meApp, meCeiling, listApp, listCeiling } = r.load;
  const { imports } = r.customerImport;
  return {
    healthRatio: healthApp.rps / healthCeiling.rps,
    listRatio: listApp.rps / listCeiling.rps,
    meRatio: meApp.rps / meCeiling.rps,
    loginRatio: r.login.app.okRps / r.login.ceilingRps,
    listOfHealth: listApp.rps / healthApp.rps,
    listOfMe: listApp.rps / meApp.rps,
    importMet: imports.medianSeconds < AIMS.importS,
    importMemMet: imports.maxPeakGrowthKb / 1024 < AIMS.importMb,
  };
}

/**
 * What a charge costs against a pgbench -N transaction, so a missed aim names the resource:
 * the machine's cores busy, split between PostgreSQL and the client, and WAL written.
 */
function chargeCostLines(billing: BillingResult): string[] {
  const { chargeCost: c, pgbenchCost: p } = billing;
  const pct = (x: number) => `${fmt(x * 100)}%`;
  const saturated =
    c.machineBusy >= 0.8
      ? `both cores ${pct(c.machineBusy)} busy during the charges: CPU is the limit, ${fmt((c.postgresUs / (c.postgresUs + c.clientUs)) * 100)}% of it PostgreSQL's`
      : `cores ${pct(c.machineBusy)} busy: not CPU-bound (lock waits or commit latency)`;
  return [
    `  per transaction (median of the runs): PostgreSQL CPU ${fmt(c.postgresUs)} µs per charge vs ${fmt(p.postgresUs)} µs per pgbench -N transaction (${fmt(c.postgresUs / p.postgresUs, 2)}x); the billing worker ${fmt(c.clientUs)} µs per charge (${fmt(c.clientSystemUs)} µs of it in the kernel) vs pgbench's own ${fmt(p.pgbenchUs)} µs per -N transaction (5 round trips); WAL ${fmt(c.walBytes)} B per charge vs ${fmt(p.walBytes)} B (${fmt(c.walBytes / p.walBytes, 1)}x)`,
    `  ${saturated}; a charge writes 2 rows (ledger, consumption) with their 7 index entries and updates 2 (lot, balance) where pgbench -N writes 1 unindexed row and updates 1`,
    `  the same charge statement driven by pgbench's C client (-M prepared, a random user of the same): ${fmt(billing.statementTps)} tps, ${fmt(billing.statementTps / billing.pgbenchTps, 2)} of pgbench -N (${billing.statementRuns.map((r) => fmt(r.tps)).join(", ")}); PostgreSQL CPU ${fmt(billing.statementCost.postgresUs)} µs and pgbench's ${fmt(billing.statementCost.pgbenchUs)} µs per charge: what the database allows a charge, without the Node client`,
  ];
}

/** The list statement's plan, buffers and time beside an index-only read of its page. */
function listPlanLines(plan: StatementsResult["listPlan"]): string[] {
  const { statement, indexOnly, ratio } = plan;
  const figures = (p: typeof statement) =>
    `${fmt(p.executionMs, 3)} ms execution (+${fmt(p.planningMs, 3)} planning), buffers: shared hit ${p.sharedHit}, read ${p.sharedRead}`;
  const indent = (shape: string) => shape.split("\n").map((line) => `      ${line}`);
  const { count, statementAsLeft } = plan;
  return [
    `  The list statement under EXPLAIN (ANALYZE, BUFFERS), warm, median of the runs, after VACUUM: ${figures(statement)}`,
    ...indent(statement.shape),
    `  The same as the load before it left the table (GIN pending list unmerged, visibility map unset): ${figures(statementAsLeft)}`,
    `  Its total alone, count(*) of all ${count.matches} matches (a statement of its own, read for scale: in the app's statement the same read of the matches also finds the page): ${figures(count)}`,
    `  Least work for the page: its ${LIST_SIZE} ids by an index-only scan (${plan.referenceIndex}, built for this and dropped; heap fetches ${indexOnly.heapFetches}): ${figures(indexOnly)}`,
    ...indent(indexOnly.shape),
    `  statement / index-only read = ${fmt(ratio, 2)}x (aim <= ${AIMS.listOfIndexOnly}x ${ratio <= AIMS.listOfIndexOnly ? "MET" : "MISSED"})`,
  ];
}

const verdict = (ratio: number, aim: number) =>
  `>= ${aim.toFixed(2)} ${ratio >= aim ? "MET" : "MISSED"}`;
const errorsNote = (s: LoadSummary) =>
  s.non2xx + s.errors > 0 ? ` [non-2xx ${s.non2xx}, errors ${s.errors}]` : "";

/** The printed report (stdout), from every scenario's result. */
export function renderReport(r: BenchResults): string {
  const { startedAt, pgVersion, dbName, health, sameShape, seed, listBytes, appReadyMs } = r.run;
  const { durationS: totalS, loadavgStart: load0, loadavgEnd: load1 } = r.run;
  const contentType = health.contentType;
  const redis = r.run.rateLimiter === "redis";
  const {
    healthApp,
    healthCeiling: healthCeil,
    meApp,
    meCeiling: meCeil,
    listApp,
    listCeiling: listCeil,
  } = r.load;
  const {
    app: loginApp,
    ceilingRps: loginCeilingRps,
    argon,
    argonParams,
    pairs,
    maxPairUses,
  } = r.login;
  const { imports, fileBytes } = r.customerImport;
  const {
    me: meTrips,
    health: healthTrips,
    login: loginTrips,
    list: listTrips,
    patchCustomer: patchTrips,
  } = r.roundTrips;
  const { statements, sessionCheck, billing, pdf, startup } = r;
  const {
    healthRatio,
    meRatio,
    loginRatio,
    listRatio,
    listOfHealth,
    listOfMe,
    importMet,
    importMemMet,
  } = derive(r);

  const lines: string[] = [];
  const out = (line = "") => lines.push(line);
  out("=".repeat(100));
  out(`Benchmark ${startedAt.toISOString()}  (${totalS.toFixed(0)} s)`);
  out(
    `Machine: ${cpus().length} x ${cpus()[0]?.model ?? "?"}, Node ${process.version}, PostgreSQL ${pgVersion}; load average ${load0.map((l) => l.toFixed(2)).join(" ")} at start, ${load1.map((l) => l.toFixed(2)).join(" ")} at end`,
  );
  out(
    `Servers: each its own process (the app as npm start runs it: node scripts/start.mjs, its bundle; the ceilings node --import tsx). App: APP_ENV=production, LOG_LEVEL=warn (access logs OFF),`,
  );
  out(
    `  PostgreSQL ${dbName} (pool ${POOL_SIZE}), rate limiter ${redis ? "Redis" : "memory"}, TRUST_PROXY=1, PASSWORD_HASH_CONCURRENCY=${HASH_CONCURRENCY}.`,
  );
  out(
    `Load: autocannon in the bench process, ${CONNECTIONS} connections, ${WARMUP_S} s warm-up, median of ${RUNS} x ${DURATION_S} s, app and ceiling runs interleaved.`,
  );
  out();
  out(
    table(
      ["route", "rps", "p99 ms", "ceiling rps", "ceiling p99", "ratio", "aim"],
      [
        [
          "GET /health",
          fmt(healthApp.rps),
          ms(healthApp.p99Ms),
          fmt(healthCeil.rps),
          ms(healthCeil.p99Ms),
          fmt(healthRatio, 2),
          verdict(healthRatio, AIMS.health),
        ],
        [
          "GET /api/v1/auth/me",
          fmt(meApp.rps),
          ms(meApp.p99Ms),
          fmt(meCeil.rps),
          ms(meCeil.p99Ms),
          fmt(meRatio, 2),
          verdict(meRatio, AIMS.me),
        ],
        [
          "GET /api/v1/customers (list)",
          fmt(listApp.rps),
          ms(listApp.p99Ms),
          fmt(listCeil.rps),
          ms(listCeil.p99Ms),
          fmt(listRatio, 2),
          verdict(listRatio, AIMS.listOfCeiling),
        ],
        [
          "POST /api/v1/auth/login",
          fmt(loginApp.okRps),
          ms(loginApp.p99Ms),
          fmt(loginCeilingRps),
          "-",
          fmt(loginRatio, 2),
          "(none)",
        ],
      ],
    ),
  );
  out();
  out("Per-run rps (app / ceiling):");
  out(
    `  /health  ${healthApp.runs.map((r) => fmt(r.rps)).join(", ")}  /  ${healthCeil.runs.map((r) => fmt(r.rps)).join(", ")}${errorsNote(healthApp)}${errorsNote(healthCeil)}`,
  );
  out(
    `  /me      ${meApp.runs.map((r) => fmt(r.rps)).join(", ")}  /  ${meCeil.runs.map((r) => fmt(r.rps)).join(", ")}${errorsNote(meApp)}${errorsNote(meCeil)}`,
  );
  out(
    `  /login   ${loginApp.runs.map((r) => fmt(r.okRps)).join(", ")}  (successful logins/s; the ratio uses these)${errorsNote(loginApp)}`,
  );
  out(
    `  list     ${listApp.runs.map((r) => fmt(r.rps)).join(", ")}  /  ${listCeil.runs.map((r) => fmt(r.rps)).join(", ")}${errorsNote(listApp)}${errorsNote(listCeil)}`,
  );
  out();
  out(`Customer list: GET ${LIST_PATH} as a user with ${seed.customers} customers`);
  out(
    `  (seeded with one INSERT ... SELECT generate_series, then VACUUM ANALYZE; created_at over a year, 7 statuses; the search matches ${seed.searchMatches}, search + status ${seed.listMatches} = total; ${fmt(listBytes / 1024, 1)} KB body)`,
  );
  out(
    table(
      ["", "rps", "p99 ms", "ratio to app /health", "ratio to app /me", "aim"],
      [
        [
          `list ${LIST_SIZE} of ${LIST_CUSTOMERS}`,
          fmt(listApp.rps),
          ms(listApp.p99Ms),
          fmt(listOfHealth, 3),
          fmt(listOfMe, 2),
          `>= ${AIMS.listOfMe.toFixed(2)} of /me ${listOfMe >= AIMS.listOfMe ? "MET" : "MISSED"}`,
        ],
      ],
    ),
  );
  out(
    `  list ceiling: bare node:http, HS256 check + the app's exact list statement (text and parameters captured from the app's query builder), named, pg Pool(${SETTINGS.poolSize}), same JSON: ${r.run.listCeilingSameBody ? "byte-identical to the app's" : "DIFFERS from the app's"}`,
  );
  out(
    `  DB round trips per list request: ${fmt(listTrips.roundTrips, 2)} (counting proxy, ${ROUND_TRIP_LISTS} sequential requests)`,
  );
  const dbListOfMe = statements.listTps / statements.meTps;
  out(
    `  PostgreSQL alone (pgbench -M prepared -c ${statements.clients}, the app's statements, median of ${RUNS} x ${DURATION_S} s): list statement ${fmt(statements.listTps)} tps, /me read ${fmt(statements.meTps)} tps, list = ${fmt(dbListOfMe, 2)} of /me at the database;`,
  );
  out(
    `  app list ${fmt(listApp.rps)} rps = ${fmt(listApp.rps / statements.listTps, 2)} of its statement's ceiling (app /me = ${fmt(meApp.rps / statements.meTps, 2)} of its read's)`,
  );
  for (const line of listPlanLines(statements.listPlan)) out(line);
  out();
  const worst = imports.runs.reduce((a, b) => (b.peakGrowthKb > a.peakGrowthKb ? b : a));
  out(
    `Customer import: POST /api/v1/customers/import, multipart "file", ${IMPORT_ROWS}-row .xlsx (company, contact, email, phone, country, status, notes; ${fmt(fileBytes / 1024)} KB)`,
  );
  out(
    `  built with exceljs in the bench process; ${IMPORT_RUNS} runs, each a fresh user and fresh e-mails (all rows inserted), on the app after the load runs.`,
  );
  out(
    `  Server memory: /proc/<pid>/status of the app process, VmHWM ${imports.hwmReset ? "reset (clear_refs 5) just before each run" : "NOT resettable here: growth from VmRSS polled every 10 ms"}; growth = peak - VmRSS before.`,
  );
  out(
    table(
      ["", "seconds", "RSS before MB", "peak RSS MB (VmHWM)", "peak growth MB", "aim"],
      [
        [
          `import ${IMPORT_ROWS} rows (median s, worst memory)`,
          fmt(imports.medianSeconds, 2),
          mb(worst.rssBeforeKb),
          mb(imports.maxHwmKb),
          mb(imports.maxPeakGrowthKb),
          `< ${AIMS.importS} s ${importMet ? "MET" : "MISSED"}, < ${AIMS.importMb} MB ${importMemMet ? "MET" : "MISSED"}`,
        ],
      ],
    ),
  );
  out(
    `  per run: ${imports.runs.map((r) => `${fmt(r.seconds, 2)} s, ${mb(r.rssBeforeKb)} -> ${mb(r.hwmAfterKb)} MB (sampled ${mb(r.sampledPeakKb)})`).join("; ")}`,
  );
  out(
    `  absolute peak RSS ${mb(imports.maxHwmKb)} MB ${imports.maxHwmKb / 1024 < AIMS.importMb ? "<" : ">="} ${AIMS.importMb} MB (includes the server's baseline after the load runs).`,
  );
  out();
  out("Ceilings:");
  out(`  /health  bare node:http, same body ${health.text} and content-type "${contentType}".`);
  out(
    `  /me      bare node:http: HS256 check with node:crypto (HMAC + timingSafeEqual, alg/exp/iss/aud) + the app's /me statement (primary-key read with the plan's features and limits, bench/me-statement.ts) through a pg Pool(${POOL_SIZE}) as a named prepared statement (as the app), JSON (same keys as the app: ${sameShape ? "yes" : "NO"}).`,
  );
  out(
    `  /login   theoretical: ${HASH_CONCURRENCY} concurrent hashes / ${fmt(argon.verifyMs, 1)} ms per argon2id verify (@node-rs/argon2, ${argonParams}, measured sequentially in this run) = ${fmt(loginCeilingRps)} req/s.`,
  );
  out(
    `           Login pairs: ${USERS} users, a fresh X-Forwarded-For per request; ${pairs} (address, email) pairs, each used at most ${maxPairUses}x (limit 5/min).`,
  );
  out();
  out(
    "DB round trips per request (counting TCP proxy between a second app instance and PostgreSQL;",
  );
  out(
    "pg_stat_statements is not preloaded here. Round trip = Sync or simple Query; cross-checked with ReadyForQuery):",
  );
  out(
    table(
      ["route", "requests", "round trips/req", "statements/req", "ReadyForQuery/req"],
      [
        ["GET /api/v1/auth/me", meTrips, ROUND_TRIP_REQUESTS] as const,
        ["GET /health", healthTrips, ROUND_TRIP_REQUESTS] as const,
        ["POST /api/v1/auth/login", loginTrips, ROUND_TRIP_LOGINS] as const,
        ["GET /api/v1/customers (list)", listTrips, ROUND_TRIP_LISTS] as const,
        ["PATCH /api/v1/customers/:id", patchTrips, ROUND_TRIP_LISTS] as const,
      ].map(([route, t, n]) => [
        route,
        String(n),
        fmt(t.roundTrips, 2),
        fmt(t.statements, 2),
        fmt(t.readyForQuery, 2),
      ]),
    ),
  );
  out(`  DB round trips per /me request: ${fmt(meTrips.roundTrips, 2)}`);
  out();
  out(
    "Session check (ended sessions refused on every authenticated route): an instance polling session_revocations",
  );
  out(
    "  at most every 500 ms (SESSION_CHECK=poll, the default) against an instance of the same app that reads it",
  );
  out("  on every request (SESSION_CHECK=query); same database, interleaved runs:");
  out(
    table(
      ["route", "poll rps", "poll p99", "query rps", "query p99", "query / poll"],
      [
        [
          "PATCH /api/v1/customers/:id",
          sessionCheck.patchPoll,
          sessionCheck.patchQuery,
          sessionCheck.patchRatio,
        ] as const,
        [
          "GET /api/v1/auth/me",
          sessionCheck.mePoll,
          sessionCheck.meQuery,
          sessionCheck.meRatio,
        ] as const,
      ].map(([route, poll, query, ratio]) => [
        route,
        fmt(poll.rps),
        ms(poll.p99Ms),
        fmt(query.rps),
        ms(query.p99Ms),
        fmt(ratio, 2),
      ]),
    ),
  );
  out(
    `  Cost of the polled check on the write route: ${fmt(patchTrips.roundTrips, 2)} round trips per PATCH (the poll is one query per instance per 500 ms, not per request); the per-request read costs ${fmt((1 - sessionCheck.patchRatio) * 100)}% of its throughput.`,
  );
  out();
  const check = billing.check;
  out(
    `Billing (chargeCredits, operation "translate", cost ${billing.cost}): child process, ${BILLING_WORKERS} async workers, pg pool ${BILLING_POOL_SIZE}, ${billing.users} users with ${billing.grantAmount} credits each,`,
  );
  out(
    `  a random user per charge; ceiling pgbench -N -c ${PGBENCH_CLIENTS} -j ${PGBENCH_THREADS} -T ${DURATION_S} (scale ${PGBENCH_SCALE}, own database, same server); ${WARMUP_S} s warm-up each, median of ${RUNS} x ${DURATION_S} s, interleaved:`,
  );
  out(
    table(
      ["", "charges/s", "p50 ms", "p99 ms", "ceiling pgbench -N tps", "ratio", "aim"],
      [
        [
          "credit charge",
          fmt(billing.chargesPerS),
          ms(billing.p50Ms),
          ms(billing.p99Ms),
          fmt(billing.pgbenchTps),
          fmt(billing.ratio, 2),
          verdict(billing.ratio, AIMS.chargesOfPgbench),
        ],
      ],
    ),
  );
  for (const line of chargeCostLines(billing)) out(line);
  out(
    `  per run: charges/s ${billing.runs.map((r) => fmt(r.chargesPerS)).join(", ")}  /  pgbench tps ${billing.pgbenchRuns.map((r) => fmt(r.tps)).join(", ")}${billing.failures ? `  [failed charges ${billing.failures}]` : ""}`,
  );
  out(
    `  ledger check: ${check.ok ? "OK" : "MISMATCH"} - ${check.balanceMatches}/${check.users} users balance = sum(ledger.delta), ${check.balanceMismatches} mismatched, ${check.lotMismatches} balance != sum(lots.remaining); ${check.consumptions} consumption rows for ${check.chargesCounted} charges counted.`,
  );
  out();
  for (const line of pdfReport(pdf)) out(line);
  out();
  out(
    `Embedded start-up (PGlite, no DATABASE_URL/REDIS_URL/secrets; process spawn -> first 200 on /health, polled every 25 ms), median of ${STARTUP_RUNS}:`,
  );
  const startAim = (ms: number, aim: number) => `< ${fmt(aim)} ms ${ms < aim ? "MET" : "MISSED"}`;
  out(
    `  fresh DATA_DIR     ${fmt(median(startup.fresh))} ms   (${startup.fresh.map((v) => fmt(v)).join(", ")})  ${startAim(median(startup.fresh), AIMS.freshStartMs)}`,
  );
  out(
    `  existing DATA_DIR  ${fmt(median(startup.existing))} ms   (${startup.existing.map((v) => fmt(v)).join(", ")})  ${startAim(median(startup.existing), AIMS.existingStartMs)}`,
  );
  out(
    `  a fresh DATA_DIR loads the migrated image built at install (${startup.image ? "present" : "ABSENT: initdb ran"}); the rest is PGlite loading it and starting its WASM, and Node loading the server's bundle (npm start: scripts/start.mjs)`,
  );
  if (!startup.cleanExit) out("  note: an embedded server did not exit 0 on SIGTERM");
  out(`  (PostgreSQL-backed app, fresh database incl. migrations: ${fmt(appReadyMs)} ms)`);
  out();
  out(renderWorkers(r.workers));
  out();
  out(renderScale(r.scale));
  out();
  out(renderScheduled(r.scheduled));
  out();
  out(renderTeamList(r.teamList));
  out();
  out(renderExtraction(r.extraction));
  out("=".repeat(100));

  return lines.join("\n");
}

/** What bench/.out/latest.json holds: every figure, the settings, and the printed report. */
export function resultJson(r: BenchResults, report: string) {
  const { startedAt, pgVersion, seed, listBytes, appReadyMs } = r.run;
  const { durationS: totalS, loadavgStart: load0, loadavgEnd: load1 } = r.run;
  const {
    healthApp,
    healthCeiling: healthCeil,
    meApp,
    meCeiling: meCeil,
    listApp,
    listCeiling: listCeil,
  } = r.load;
  const { app: loginApp, ceilingRps: loginCeilingRps, argon, pairs, maxPairUses } = r.login;
  const { imports, fileBytes } = r.customerImport;
  const {
    me: meTrips,
    health: healthTrips,
    login: loginTrips,
    list: listTrips,
    patchCustomer: patchTrips,
  } = r.roundTrips;
  const { statements, sessionCheck, billing, pdf, startup } = r;
  const {
    healthRatio,
    meRatio,
    loginRatio,
    listRatio,
    listOfHealth,
    listOfMe,
    importMet,
    importMemMet,
  } = derive(r);
  return {
    startedAt: startedAt.toISOString(),
    durationS: totalS,
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model,
      node: process.version,
      postgres: pgVersion,
      loadavgStart: load0,
      loadavgEnd: load1,
    },
    settings: {
      connections: CONNECTIONS,
      durationS: DURATION_S,
      warmupS: WARMUP_S,
      runs: RUNS,
      poolSize: POOL_SIZE,
      hashConcurrency: HASH_CONCURRENCY,
      rateLimiter: r.run.rateLimiter,
      logLevel: "warn",
      accessLogs: false,
      users: USERS,
    },
    routes: {
      health: {
        app: healthApp,
        ceiling: healthCeil,
        ratio: healthRatio,
        aim: AIMS.health,
        met: healthRatio >= AIMS.health,
      },
      me: { app: meApp, ceiling: meCeil, ratio: meRatio, aim: AIMS.me, met: meRatio >= AIMS.me },
      customerList: {
        path: LIST_PATH,
        app: listApp,
        ceiling: listCeil,
        ratio: listRatio,
        aim: AIMS.listOfCeiling,
        ceilingMet: listRatio >= AIMS.listOfCeiling,
        seed,
        bodyBytes: listBytes,
        ratioToHealth: listOfHealth,
        ratioToMe: listOfMe,
        aimOfMe: AIMS.listOfMe,
        met: listOfMe >= AIMS.listOfMe,
        statementCeilings: statements,
      },
      login: {
        app: loginApp,
        ceilingRps: loginCeilingRps,
        ratio: loginRatio,
        argon2VerifyMs: argon.verifyMs,
        argon2Samples: argon.samples,
        hashConcurrency: HASH_CONCURRENCY,
        pairs,
        maxPairUses,
      },
    },
    dbRoundTrips: {
      me: meTrips,
      health: healthTrips,
      login: loginTrips,
      list: listTrips,
      patchCustomer: patchTrips,
    },
    sessionCheck,
    customerImport: {
      ...imports,
      rows: IMPORT_ROWS,
      fileBytes,
      aimSeconds: AIMS.importS,
      aimMb: AIMS.importMb,
      metSeconds: importMet,
      metMemory: importMemMet,
    },
    billing: {
      ...billing,
      workers: BILLING_WORKERS,
      poolSize: BILLING_POOL_SIZE,
      pgbench: { scale: PGBENCH_SCALE, clients: PGBENCH_CLIENTS, threads: PGBENCH_THREADS },
    },
    quotationPdf: pdf,
    startup: {
      freshMs: startup.fresh,
      existingMs: startup.existing,
      freshMedianMs: median(startup.fresh),
      existingMedianMs: median(startup.existing),
      postgresAppReadyMs: appReadyMs,
    },
    workers: r.workers,
    scale: r.scale,
    scheduled: r.scheduled,
    teamList: r.teamList,
    extraction: r.extraction,
    report,
  };
}
