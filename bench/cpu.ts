import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time from /proc, to say which process a run saturates: per process group (PostgreSQL's
 * backends by their command name, chosen pids by name) and the machine's busy share.
 */
export interface CpuSnapshot {
  at: number;
  pids: Record<string, number | undefined>;
  /** Clock ticks (user + system) per group. */
  ticks: Record<string, number>;
  /** The system (kernel) part of those ticks. */
  systemTicks: Record<string, number>;
  /** Machine-wide busy and total ticks from /proc/stat. */
  busy: number;
  total: number;
}

export interface CpuUse {
  seconds: number;
  /** Core-seconds per group. */
  coreS: Record<string, number>;
  /** The kernel's part of them (system calls: a loopback socket's send runs the receive too). */
  systemCoreS: Record<string, number>;
  /** Share of all cores busy, 0..1. */
  machineBusy: number;
}

const TICKS_PER_S = 100;

/**
 * A process's own ticks, plus those of its children it has reaped: a PostgreSQL backend that
 * exits (a pgbench run's connections) moves its time into the postmaster's, so the group's
 * total stays continuous.
 */
function processTicks(pid: string): { comm: string; ticks: number; system: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may hold spaces; fields follow the last ')'.
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const fields = stat.slice(close + 2).split(" ");
    const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
    return { comm, ticks: utime! + stime! + cutime! + cstime!, system: stime! + cstime! };
  } catch {
    return undefined; // exited between listing and reading
  }
}

/** This process's reaped children's ticks (cutime + cstime of /proc/self/stat). */
function reapedChildrenTicks(): { ticks: number; system: number } {
  const stat = readFileSync("/proc/self/stat", "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const [cutime, cstime] = fields.slice(13, 15).map(Number);
  return { ticks: cutime! + cstime!, system: cstime! };
}

/** Processes counted by command name (every backend of the server, every pgbench). */
const BY_COMMAND = ["postgres", "pgbench"];

/** `pids`: a name for each process followed on its own (e.g. the Node process under load). */
export function cpuSnapshot(pids: Record<string, number | undefined> = {}): CpuSnapshot {
  const ticks: Record<string, number> = Object.fromEntries(BY_COMMAND.map((c) => [c, 0]));
  const systemTicks: Record<string, number> = Object.fromEntries(BY_COMMAND.map((c) => [c, 0]));
  const named = new Map<string, string>();
  for (const [name, pid] of Object.entries(pids)) {
    if (pid !== undefined) named.set(String(pid), name);
    ticks[name] = 0;
    systemTicks[name] = 0;
  }
  // pgbench runs as the bench's child: once it exits, its time is in the bench's reaped-children
  // ticks (no other child of the bench exits during a measured run).
  const reaped = reapedChildrenTicks();
  ticks.pgbench! += reaped.ticks;
  systemTicks.pgbench! += reaped.system;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    const info = processTicks(pid);
    if (!info) continue;
    const name = named.get(pid) ?? (BY_COMMAND.includes(info.comm) ? info.comm : undefined);
    if (name) {
      ticks[name]! += info.ticks;
      systemTicks[name]! += info.system;
    }
  }
  const cpu = readFileSync("/proc/stat", "utf8")
    .split("\n")[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
  const total = cpu.reduce((a, b) => a + b, 0);
  return { at: performance.now(), pids, ticks, systemTicks, busy: total - idle, total };
}

export function cpuSince(before: CpuSnapshot): CpuUse {
  const after = cpuSnapshot(before.pids);
  const coreS: Record<string, number> = {};
  const systemCoreS: Record<string, number> = {};
  for (const name of Object.keys(before.ticks)) {
    coreS[name] = ((after.ticks[name] ?? 0) - before.ticks[name]!) / TICKS_PER_S;
    systemCoreS[name] = ((after.systemTicks[name] ?? 0) - before.systemTicks[name]!) / TICKS_PER_S;
  }
  const total = after.total - before.total;
  return {
    seconds: (after.at - before.at) / 1000,
    coreS,
    systemCoreS,
    machineBusy: total > 0 ? (after.busy - before.busy) / total : 0,
  };
}
