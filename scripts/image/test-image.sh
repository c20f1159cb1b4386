#!/usr/bin/env bash
# CI's image test (.ci/run): builds the base and the image, migrates the machine's PostgreSQL
# from it, starts it in production mode against that database and Redis, registers a user,
# stops it with SIGTERM (exit code 0 expected), starts it again and signs in as that user.
# Also: the server runs as non-root on a read-only root file system, the image's health check
# passes, compose.yaml parses with the services and order docs/deploy.md describes.
#
# Podman on these machines: runc, host networking, no default ulimits (containers.conf here).
# The image under test listens on a free loopback port; its database is a fresh image_test,
# its rate limits Redis database 13 (both emptied before and after).
set -euo pipefail
cd "$(dirname "$0")/../.."
here=scripts/image
export CONTAINERS_CONF="${CONTAINERS_CONF:-$PWD/$here/containers.conf}"
base="${BASE_IMAGE:-localhost/node-base:20}"
image="${TEST_IMAGE:-localhost/trade-assistant:ci}"
name="trade-assistant-image-test"
volume="$name-data"
pg_admin="${IMAGE_TEST_PG:-postgres://postgres@127.0.0.1:5432/postgres}"
database="image_test"
redis_db=13
run=(--network host --runtime runc)

started=$SECONDS
step_started=$SECONDS
timings=()
step() {
  local now=$SECONDS
  [ -n "${step_name:-}" ] && timings+=("$(printf '%5ss  %s' $((now - step_started)) "$step_name")")
  step_name="$1"
  step_started=$now
  echo "== $1"
}
# The container the steps talk to: the PostgreSQL one, then the one-box one.
current="$name"
fail() {
  echo "image test FAILED: $*" >&2
  podman logs --tail 40 "$current" >&2 2>/dev/null || true
  exit 1
}
box="$name-box"
cleanup() {
  podman rm -f -t 0 "$name" "$box" >/dev/null 2>&1 || true
  podman volume rm -f "$volume" "$volume-box" "$volume-restored" >/dev/null 2>&1 || true
  psql "$pg_admin" -qc "DROP DATABASE IF EXISTS $database WITH (FORCE)" >/dev/null 2>&1 || true
  redis-cli -n "$redis_db" flushdb >/dev/null 2>&1 || true
  rm -f "$env_file" "$env_file.box"
}
env_file="$(mktemp)"
trap cleanup EXIT

step "compose.yaml"
node --input-type=module -e '
  import { readFileSync } from "node:fs";
  import { parse } from "yaml";
  const { services } = parse(readFileSync("compose.yaml", "utf8"));
  const problems = [];
  for (const name of ["postgres", "redis", "migrate", "app"]) if (!services?.[name]) problems.push(`no ${name} service`);
  const app = services?.app ?? {};
  const wanted = { postgres: "service_healthy", redis: "service_healthy", migrate: "service_completed_successfully" };
  for (const [dep, condition] of Object.entries(wanted)) {
    if (app.depends_on?.[dep]?.condition !== condition) problems.push(`app must wait for ${dep}: ${condition}`);
  }
  if (app.environment?.APP_ENV !== "production") problems.push("app: APP_ENV is not production");
  if (services?.migrate?.image !== app.image) problems.push("migrate does not run the app image");
  if (!/migrate\.mjs/.test(String(services?.migrate?.command))) problems.push("migrate does not migrate");
  if (problems.length) { console.error(problems.join("\n")); process.exit(1); }
' || fail "compose.yaml"

# IMAGE_TEST_BUILT=1 tests the image already tagged (a rerun after a failure further on).
if [ -z "${IMAGE_TEST_BUILT:-}" ]; then
step "base image"
bash "$here/build-base.sh"

step "app image"
podman build --format docker --network host --runtime runc --isolation chroot \
  --build-arg NODE_IMAGE="$base" --secret id=npm_ca,src="${NPM_CA_FILE:-/etc/ssl/certs/ca-certificates.crt}" \
  -t "$image" . >/tmp/"$name"-build.log 2>&1 \
  || { tail -40 /tmp/"$name"-build.log; fail "podman build"; }
fi
# The build stage's layers are left in the store: they are the next build's cache.
size="$(podman image inspect --format '{{.Size}}' "$image")"
echo "image $image: $((size / 1000000)) MB"
[ "$(podman image inspect --format '{{.Config.User}}' "$image")" = "node" ] || fail "image user is not node"
podman image inspect --format '{{.Config.Healthcheck}}' "$image" | grep -q '/health' \
  || fail "image has no HEALTHCHECK on /health"

step "migrate"
psql "$pg_admin" -qc "DROP DATABASE IF EXISTS $database WITH (FORCE)" -c "CREATE DATABASE $database" >/dev/null
redis-cli -n "$redis_db" flushdb >/dev/null
port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
secret() { node -e 'console.log(require("crypto").randomBytes(36).toString("base64url"))'; }
cat >"$env_file" <<ENV
APP_ENV=production
HOST=127.0.0.1
PORT=$port
DATABASE_URL=${pg_admin%/*}/$database
REDIS_URL=redis://127.0.0.1:6379/$redis_db
JWT_SECRET=$(secret)
CSRF_SECRET=$(secret)
APP_ENCRYPTION_KEY=$(secret)
PUBLIC_BASE_URL=https://api.example.test
FRONTEND_URL=https://app.example.test
CORS_ORIGINS=https://app.example.test
ALLOW_NO_MAIL=true
RATES_API_URL=off
RATES_WIDE_API_URL=off
SHUTDOWN_TIMEOUT_MS=20000
ENV
podman run --rm "${run[@]}" --env-file "$env_file" "$image" \
  node node_modules/.cache/app/migrate.mjs || fail "migrate container"
tables="$(psql "${pg_admin%/*}/$database" -tAc "select count(*) from information_schema.tables where table_schema = 'public'")"
[ "$tables" -gt 10 ] || fail "migrate left $tables tables"
echo "$tables tables"

base_url="http://127.0.0.1:$port"
wait_ready() {
  for _ in $(seq 1 180); do
    [ "$(podman inspect --format '{{.State.Running}}' "$current")" = "true" ] || fail "container exited"
    curl -fsS "$base_url/health/ready" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  fail "not ready in 90 s"
}
json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s)[process.argv[1]]??""))' "$1"; }

step "start"
podman volume create "$volume" >/dev/null
# The runtime's own limits (read-only root, no capabilities), as compose.yaml runs it.
podman run -d --name "$name" "${run[@]}" --env-file "$env_file" -v "$volume:/data" \
  --read-only --tmpfs /tmp --cap-drop ALL --security-opt no-new-privileges "$image" >/dev/null \
  || fail "podman run"
wait_ready
[ "$(podman exec "$name" id -u)" != "0" ] || fail "the server runs as root"
pid1_user="$(podman exec "$name" sh -c 'stat -c %U /proc/1')"
[ "$pid1_user" = "node" ] || fail "pid 1 belongs to $pid1_user"
[ "$(podman exec "$name" sh -c 'cat /proc/1/comm')" = "node" ] || fail "pid 1 is not node"
podman healthcheck run "$name" || fail "health check"

step "register"
email="image-$(date +%s)@example.test"
password="$(secret)"
body="$(printf '{"email":"%s","password":"%s","name":"Image Test"}' "$email" "$password")"
registered="$(curl -sS -X POST "$base_url/api/v1/auth/register" -H 'content-type: application/json' -d "$body" -w '\n%{http_code}')"
[ "$(tail -n1 <<<"$registered")" = "201" ] || [ "$(tail -n1 <<<"$registered")" = "200" ] \
  || fail "register answered $registered"

step "SIGTERM"
podman stop -t 30 "$name" >/dev/null
code="$(podman inspect --format '{{.State.ExitCode}}' "$name")"
[ "$code" = "0" ] || fail "exit code $code after SIGTERM"
podman logs "$name" 2>&1 | grep -q '"shutting down"' || fail "no drain in the log"

step "restart"
podman start "$name" >/dev/null
wait_ready
login="$(printf '{"email":"%s","password":"%s"}' "$email" "$password")"
token="$(curl -fsS -X POST "$base_url/api/v1/auth/login" -H 'content-type: application/json' -d "$login" | json access_token)" \
  || fail "login after restart"
[ -n "$token" ] || fail "login answered no token"
me="$(curl -fsS "$base_url/api/v1/auth/me" -H "authorization: Bearer $token" | json email)"
[ "$me" = "$email" ] || fail "/auth/me is $me, not $email"
podman stop -t 30 "$name" >/dev/null
code="$(podman inspect --format '{{.State.ExitCode}}' "$name")"
[ "$code" = "0" ] || fail "exit code $code after the second SIGTERM"

# One box: no PostgreSQL, no Redis (a small company's single server). The embedded database on
# the data volume, a hot backup taken while it serves, a restore into a new volume in a one-off
# container, and the restored copy serving the same account.
step "one box: start, register, hot backup"
box_env="$env_file.box"
grep -v -e '^DATABASE_URL=' -e '^REDIS_URL=' "$env_file" >"$box_env"
printf 'ALLOW_EMBEDDED_DATABASE=true\nALLOW_MEMORY_RATE_LIMIT=true\n' >>"$box_env"
current="$box"
box_run=(--env-file "$box_env" --read-only --tmpfs /tmp --cap-drop ALL --security-opt no-new-privileges)
podman volume create "$volume-box" >/dev/null
podman run -d --name "$box" "${run[@]}" "${box_run[@]}" -v "$volume-box:/data" "$image" >/dev/null \
  || fail "podman run (one box)"
wait_ready
box_email="box-$(date +%s)@example.test"
body="$(printf '{"email":"%s","password":"%s","name":"One Box"}' "$box_email" "$password")"
code="$(curl -sS -o /dev/null -w '%{http_code}' -X POST "$base_url/api/v1/auth/register" -H 'content-type: application/json' -d "$body")"
[ "$code" = "201" ] || [ "$code" = "200" ] || fail "one box: register answered $code"
podman exec "$box" node node_modules/.cache/app/backup.mjs backup /data/box.bak \
  || fail "one box: hot backup"
podman stop -t 30 "$box" >/dev/null
code="$(podman inspect --format '{{.State.ExitCode}}' "$box")"
[ "$code" = "0" ] || fail "one box: exit code $code after SIGTERM"

step "one box: restore into a new volume, serve from it"
podman rm -f -t 0 "$box" >/dev/null
podman volume create "$volume-restored" >/dev/null
podman run --rm "${run[@]}" "${box_run[@]}" -v "$volume-restored:/data" -v "$volume-box:/old:ro" \
  "$image" node node_modules/.cache/app/backup.mjs restore /old/box.bak \
  || fail "one box: restore"
podman run -d --name "$box" "${run[@]}" "${box_run[@]}" -v "$volume-restored:/data" "$image" >/dev/null \
  || fail "podman run (restored)"
wait_ready
login="$(printf '{"email":"%s","password":"%s"}' "$box_email" "$password")"
token="$(curl -fsS -X POST "$base_url/api/v1/auth/login" -H 'content-type: application/json' -d "$login" | json access_token)" \
  || fail "one box: login on the restored copy"
me="$(curl -fsS "$base_url/api/v1/auth/me" -H "authorization: Bearer $token" | json email)"
[ "$me" = "$box_email" ] || fail "one box: /auth/me on the restored copy is $me, not $box_email"
podman stop -t 30 "$box" >/dev/null
code="$(podman inspect --format '{{.State.ExitCode}}' "$box")"
[ "$code" = "0" ] || fail "one box: exit code $code after SIGTERM on the restored copy"

step "done"
echo "image test timings:"
printf '%s\n' "${timings[@]}"
printf '%5ss  total\n' $((SECONDS - started))
