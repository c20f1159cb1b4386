import { strToU8, zipSync } from "fflate";
import { ApiError, conflict, forbidden, unauthorized, validationError } from "../../http/errors";
import { hex, hmacSign } from "../../lib/crypto";
import { CSV_BOM, csvLine } from "../../lib/csv";
import type { Deps } from "../../ports";
import { MailError } from "../../providers/mail/types";
import type { Actor } from "../admin/queries/audit";
import { noteSessionEnded } from "../auth/revocations";
import { getOrg, leaveOrg } from "../orgs/service";
import { getAccount } from "./queries/account";
import { deleteAccount as deleteAccountRows } from "./queries/account-deletion";
import { exportAccount as exportAccountRows } from "./queries/account-export";

// Account data (API.md "Trade documents and account data", ADR 0107): DELETE /users/me and
// GET /users/me/export, both audited.

/** A mailed deletion code is good for this window and the one before it (15 to 30 minutes). */
const CODE_WINDOW_MS = 15 * 60_000;

/** The 6-digit code of `userId` for one window: an HMAC of the account and the window, kept nowhere. */
async function deletionCode(deps: Deps, userId: string, window: number): Promise<string> {
  const mac = await hmacSign(deps.keys.csrf, `account-delete:${userId}:${window}`);
  return String(Number.parseInt(hex(mac.subarray(0, 4)), 16) % 1_000_000).padStart(6, "0");
}

async function codeMatches(deps: Deps, userId: string, code: string): Promise<boolean> {
  const window = Math.floor(deps.clock.now().getTime() / CODE_WINDOW_MS);
  for (const w of [window, window - 1]) {
    if ((await deletionCode(deps, userId, w)) === code) return true;
  }
  return false;
}

/** The account as the deletion checks it: active, not a guest. */
async function deletable(deps: Deps, userId: string) {
  const account = await getAccount(deps.db, { id: userId });
  if (account?.status !== "active") throw unauthorized("Account is not active");
  if (account.is_guest) {
    throw forbidden("A guest session has no account to delete", "guest_not_allowed");
  }
  return account;
}

/**
 * POST /users/me/deletion-code: mails a 6-digit code to the address of an account that has no
 * password (WeChat sign-in), to confirm DELETE /users/me with. 502 when the mail fails.
 */
export async function requestDeletionCode(deps: Deps, userId: string) {
  const account = await deletable(deps, userId);
  if (account.password_hash) {
    throw conflict("This account has a password: confirm the deletion with it");
  }
  if (!account.email) {
    throw conflict(
      "The account has no e-mail address to send a code to: add one (POST /api/v1/auth/email) first",
    );
  }
  const window = Math.floor(deps.clock.now().getTime() / CODE_WINDOW_MS);
  const code = await deletionCode(deps, userId, window);
  try {
    await deps.mailer.send({
      to: account.email,
      subject: "Your account deletion code",
      text: `Your code to delete your account is ${code}.\n\nIt works for 15 minutes. If you did not ask to delete your account, ignore this mail and sign in to check your account.\n`,
    });
  } catch (error) {
    if (!(error instanceof MailError)) throw error;
    throw new ApiError(502, "The code could not be mailed; try again shortly", {
      code: "mail_failed",
      extra: { reason: error.reason },
    });
  }
  return { sent_to: account.email, expires_in_seconds: CODE_WINDOW_MS / 1000 };
}

/**
 * DELETE /users/me: checks the password (or, for an account without one, the mailed code),
 * applies the organisation's rules (a sole owner of an organisation with other members must
 * transfer ownership first: 409; a member leaves as when removed, their customers to the pool),
 * then deletes the account's data and ends every session in one statement (queries/
 * account-deletion.ts). The credit ledger and payments stay, naming the anonymised account.
 */
export async function deleteAccount(
  deps: Deps,
  actor: Actor & { id: string },
  input: { password?: string | undefined; code?: string | undefined },
) {
  const userId = actor.id;
  const account = await deletable(deps, userId);
  const wrong = (field: "password" | "code", msg: string) =>
    validationError([{ loc: ["body", field], msg, type: "invalid" }], msg);
  if (account.password_hash) {
    if (input.password === undefined) throw wrong("password", "Give the account's password");
    if (!(await deps.passwords.verify(account.password_hash, input.password))) {
      throw wrong("password", "Wrong password");
    }
  } else {
    if (input.code === undefined) {
      throw wrong(
        "code",
        "Give the code mailed by POST /api/v1/users/me/deletion-code (the account has no password)",
      );
    }
    if (!(await codeMatches(deps, userId, input.code))) {
      throw wrong("code", "Wrong or expired code");
    }
  }

  const org = await getOrg(deps, userId);
  if (org.member_count > 1) {
    if (org.role === "owner") {
      throw conflict(
        "You own an organisation with other members: transfer ownership first (POST /api/v1/org/transfer-ownership)",
      );
    }
    // As when removed: the customers they hold go to the pool, the company keeps its records.
    await leaveOrg(deps, userId);
  }
  const result = await deleteAccountRows(deps.db, {
    userId,
    at: deps.clock.now().toISOString(),
    actor,
  });
  if (!result) {
    throw conflict("Someone joined your organisation meanwhile; try again");
  }
  for (const session of result.sessions) noteSessionEnded(deps, session);
}

/** A CSV of rows (objects): the union of their keys as the header, nested values as JSON. */
function csvOf(rows: readonly unknown[]): string {
  const objects = rows.filter(
    (r): r is Record<string, unknown> => typeof r === "object" && r !== null,
  );
  const keys = [...new Set(objects.flatMap((r) => Object.keys(r)))];
  const cell = (v: unknown) =>
    v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v);
  return (
    CSV_BOM + csvLine(keys) + objects.map((r) => csvLine(keys.map((k) => cell(r[k])))).join("")
  );
}

const README = `Your account's records, as kept by the service on the date of this export.

Each kind of record is in two files: <kind>.json (the rows as stored) and <kind>.csv (the same
rows, one a line, nested values as JSON, formula-like cells prefixed with an apostrophe).
Amounts are in minor units of their currency (cents); times are UTC.
`;

/** GET /users/me/export: every record the caller holds, as a zip of JSON and CSV files; audited. */
export async function exportAccount(deps: Deps, actor: Actor & { id: string }) {
  const data = await exportAccountRows(deps.db, { userId: actor.id, actor });
  if (!data) throw unauthorized("Account is not active");
  const files: Record<string, Uint8Array> = { "README.txt": strToU8(README) };
  for (const [kind, rows] of Object.entries(data)) {
    const list = rows ?? [];
    files[`${kind}.json`] = strToU8(JSON.stringify(list, null, 2));
    files[`${kind}.csv`] = strToU8(csvOf(list));
  }
  const day = deps.clock.now().toISOString().slice(0, 10);
  return { filename: `account-export-${day}.zip`, bytes: zipSync(files, { level: 6 }) };
}
