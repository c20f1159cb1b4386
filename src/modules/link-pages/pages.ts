/**
 * The built-in pages the links land on when no FRONTEND_URL is set (ADR 0092): static HTML and
 * one static script each. Nothing in them comes from the request: the script reads the query
 * (the token, the order number, the referral code) from `location.search` and writes only with
 * textContent, so the HTML needs no escaping and never carries a token.
 */

export interface LinkPage {
  /** The path the link names (src/modules/account/links.ts and its callers build it). */
  path: string;
  title: string;
  /** Static markup between <main> and </main>: no handler attributes, no request data. */
  body: string;
  /** The page's own script, run after COMMON_SCRIPT in the same <script>. */
  script: string;
}

export const STYLE = `
[hidden]{display:none!important}
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1d2330}
main{max-width:28rem;margin:3rem auto;padding:1.5rem 2rem;background:#fff;border-radius:8px;
box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.4rem;margin-top:0}h2{font-size:1.1rem}
label{display:block;margin:.8rem 0}input{display:block;width:100%;box-sizing:border-box;
padding:.45rem;font:inherit;border:1px solid #b8bfcc;border-radius:4px}
button{font:inherit;padding:.5rem 1rem;border:0;border-radius:4px;background:#2456c7;color:#fff;
cursor:pointer}button:disabled{opacity:.6;cursor:default}
.ok{color:#17692f}.error{color:#b3261e}dl{display:grid;grid-template-columns:auto 1fr;gap:.2rem 1rem}
dt{color:#5b6475}dd{margin:0}
`;

/** The sign-in form the pages that need a session show on 401. */
const SIGN_IN_FORM = `
<form id="signin" hidden>
<h2>Sign in</h2>
<label>E-mail <input id="signin-email" type="email" autocomplete="username" required></label>
<label>Password <input id="signin-password" type="password" autocomplete="current-password" required></label>
<button id="signin-submit" type="submit">Sign in</button>
</form>`;

/**
 * Helpers every page's script starts with. `root` keeps a path prefix a proxy puts before the
 * app: the page at /prefix/verify-email calls /prefix/api/v1/...
 */
const COMMON_SCRIPT = `"use strict";
const here = location.pathname;
const root = here.endsWith(PAGE) ? here.slice(0, here.length - PAGE.length) : "";
const query = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);

/** A query parameter, then removed from the address bar and the history entry. */
function takeParam(name) {
  const value = query.get(name) || "";
  if (query.has(name)) {
    const rest = new URLSearchParams(location.search);
    rest.delete(name);
    const search = rest.toString();
    history.replaceState(null, "", here + (search ? "?" + search : ""));
  }
  return value;
}

function say(text, kind) {
  const el = $("status");
  el.textContent = text;
  el.className = kind || "";
}

async function api(method, path, body, csrf) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (csrf) headers["X-CSRF-Token"] = csrf;
  let res;
  try {
    res = await fetch(root + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      cache: "no-store",
      referrerPolicy: "no-referrer",
    });
  } catch {
    return { status: 0, data: { detail: "The server could not be reached: check the connection and try again." } };
  }
  let data = {};
  try {
    data = await res.json();
  } catch {
    data = {};
  }
  return { status: res.status, data: data && typeof data === "object" ? data : {}, headers: res.headers };
}

/** A CSRF token for the session the browser holds (or none): every write sends one. */
async function csrfToken() {
  const r = await api("GET", "/api/v1/auth/csrf");
  return typeof r.data.csrf_token === "string" ? r.data.csrf_token : "";
}

async function post(path, body) {
  return api("POST", path, body, await csrfToken());
}

/** What the API said went wrong: the first field error of a 422, else its detail. */
function problem(r, fallback) {
  const errors = r.data.errors;
  if (Array.isArray(errors) && errors[0] && typeof errors[0].msg === "string") return errors[0].msg;
  if (r.status === 429) return "Too many attempts: wait a minute and try again.";
  return typeof r.data.detail === "string" ? r.data.detail : fallback;
}

/** Shows the sign-in form; once signed in, runs \`then\` again. */
function askSignIn(then) {
  const form = $("signin");
  if (!form || form.dataset.ready) {
    if (form) form.hidden = false;
    return;
  }
  form.dataset.ready = "1";
  form.hidden = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    $("signin-submit").disabled = true;
    const r = await post("/api/v1/auth/login", {
      email: $("signin-email").value,
      password: $("signin-password").value,
    });
    $("signin-submit").disabled = false;
    if (r.status !== 200) {
      say(problem(r, "Could not sign in."), "error");
      return;
    }
    form.hidden = true;
    $("signin-password").value = "";
    then();
  });
}
`;

const verifyEmail: LinkPage = {
  path: "/verify-email",
  title: "Verify your e-mail address",
  body: `<h1>Verify your e-mail address</h1>
<p id="status" role="status">Verifying…</p>`,
  script: `
const token = takeParam("token");
if (!token) {
  say("This link has no token: open the link in the mail again.", "error");
} else {
  post("/api/v1/auth/verify-email", { token }).then((r) => {
    if (r.status === 200) say("Your e-mail address " + r.data.email + " is verified.", "ok");
    else say(problem(r, "This link could not be used."), "error");
  });
}
`,
};

const resetPassword: LinkPage = {
  path: "/reset-password",
  title: "Choose a new password",
  body: `<h1>Choose a new password</h1>
<form id="reset">
<label>New password <input id="password" type="password" autocomplete="new-password" minlength="6" maxlength="128" required></label>
<label>Repeat it <input id="repeat" type="password" autocomplete="new-password" minlength="6" maxlength="128" required></label>
<button id="submit" type="submit">Set the password</button>
</form>
<p id="status" role="status"></p>`,
  script: `
const token = takeParam("token");
const form = $("reset");
if (!token) {
  form.hidden = true;
  say("This link has no token: open the link in the mail again.", "error");
}
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const password = $("password").value;
  if (password !== $("repeat").value) {
    say("The two passwords differ.", "error");
    return;
  }
  $("submit").disabled = true;
  say("Saving…");
  const r = await post("/api/v1/auth/password/reset", { token, new_password: password });
  $("submit").disabled = false;
  if (r.status === 200) {
    form.hidden = true;
    say("Your password is changed. Every session of the account has ended: sign in with the new password.", "ok");
  } else {
    say(problem(r, "The password could not be changed."), "error");
  }
});
`,
};

const checkoutResult: LinkPage = {
  path: "/checkout/result",
  title: "Payment",
  body: `<h1>Payment</h1>
<p id="status" role="status">Looking up the order…</p>
<dl id="order" hidden>
<dt>Order</dt><dd id="order-no"></dd>
<dt>For</dt><dd id="order-subject"></dd>
<dt>Amount</dt><dd id="order-amount"></dd>
<dt>Status</dt><dd id="order-status"></dd>
</dl>
${SIGN_IN_FORM}`,
  script: `
const orderNo = query.get("order_no") || "";
const outcome = query.get("result") || "";
const STATES = {
  paid: ["Paid: thank you. The purchase is on your account.", "ok"],
  pending: ["Waiting for the payment to be confirmed…", ""],
  closed: ["This order was closed without a payment.", "error"],
  refunded: ["This order was refunded.", ""],
};
let polls = 0;
function show(order) {
  $("order").hidden = false;
  $("order-no").textContent = order.order_no;
  $("order-subject").textContent = order.subject;
  $("order-amount").textContent = (order.amount / 100).toFixed(2) + " " + order.currency;
  $("order-status").textContent = order.status;
  const state = STATES[order.status] || ["Order status: " + order.status, ""];
  if (order.status === "pending" && outcome === "cancel") say("The payment was cancelled: the order stays open until it expires.", "error");
  else say(state[0], state[1]);
}
async function load() {
  const r = await api("GET", "/api/v1/payments/orders/" + encodeURIComponent(orderNo));
  if (r.status === 200) {
    show(r.data);
    if (r.data.status === "pending" && outcome !== "cancel" && polls++ < 24) setTimeout(load, 5000);
  } else if (r.status === 401) {
    say("Sign in first to see this order.", "error");
    askSignIn(load);
  } else if (r.status === 429) {
    const wait = Number(r.headers && r.headers.get("Retry-After")) || 10;
    say("Checking again in " + wait + " s…");
    setTimeout(load, wait * 1000);
  } else if (r.status === 404) {
    say("This account has no order " + orderNo + ".", "error");
  } else {
    say(problem(r, "The order could not be read."), "error");
  }
}
if (!orderNo) say("This link names no order.", "error");
else load();
`,
};

const invite: LinkPage = {
  path: "/invite",
  title: "Workspace invitation",
  body: `<h1>Workspace invitation</h1>
<p id="status" role="status">You were invited to join a workspace.</p>
<button id="accept" type="button">Accept the invitation</button>
${SIGN_IN_FORM}`,
  script: `
const token = takeParam("token");
const button = $("accept");
async function accept() {
  button.disabled = true;
  say("Accepting…");
  const r = await post("/api/v1/org/invitations/accept", { token });
  button.disabled = false;
  if (r.status === 200 || r.status === 201) {
    button.hidden = true;
    const name = r.data.organization && r.data.organization.name;
    say(typeof name === "string" ? "You joined " + name + "." : "You joined the workspace.", "ok");
  } else if (r.status === 401) {
    say("Sign in first, with the account the invitation is for: then it is accepted.", "error");
    askSignIn(accept);
  } else if (r.status === 404 && r.data.detail === "Not found") {
    say("This server does not accept workspace invitations yet.", "error");
  } else {
    say(problem(r, "The invitation could not be accepted."), "error");
  }
}
if (!token) {
  button.hidden = true;
  say("This link has no token: open the link in the invitation again.", "error");
} else {
  button.addEventListener("click", accept);
}
`,
};

const register: LinkPage = {
  path: "/register",
  title: "Create your account",
  body: `<h1>Create your account</h1>
<form id="register">
<label>E-mail <input id="email" type="email" autocomplete="email" maxlength="254" required></label>
<label>Password <input id="password" type="password" autocomplete="new-password" minlength="6" maxlength="128" required></label>
<label>Referral code (optional) <input id="referral" type="text" autocomplete="off" maxlength="32"></label>
<button id="submit" type="submit">Create the account</button>
</form>
<p id="status" role="status"></p>`,
  script: `
const form = $("register");
$("referral").value = (query.get("ref") || "").slice(0, 32);
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const email = $("email").value.trim();
  const code = $("referral").value.trim();
  $("submit").disabled = true;
  say("Creating the account…");
  const body = { email, password: $("password").value };
  if (code) body.referral_code = code;
  const r = await post("/api/v1/auth/register", body);
  $("submit").disabled = false;
  if (r.status === 201) {
    form.hidden = true;
    say("Your account is created and you are signed in. A link to verify " + email + " is on its way.", "ok");
  } else {
    say(problem(r, "The account could not be created."), "error");
  }
});
`,
};

export const LINK_PAGES: readonly LinkPage[] = [
  verifyEmail,
  resetPassword,
  checkoutResult,
  invite,
  register,
];

/** The page's whole script: its path as a constant, the helpers, then its own code. */
export const pageScript = (page: LinkPage): string =>
  `const PAGE = ${JSON.stringify(page.path)};\n${COMMON_SCRIPT}${page.script}`;
