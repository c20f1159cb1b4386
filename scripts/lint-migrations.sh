#!/usr/bin/env bash
# Lints every migration added since the last release with squawk (.squawk.toml), so a migration
# that would lock a busy table fails CI. Older migrations ran everywhere already and are history.
# The release's last migration is read from migrations/releases.json (a clone may lack tags);
# when the tag is present, the record is checked against it. ADR 0120.
# Usage: scripts/lint-migrations.sh [migrations-dir]   (the directory holds releases.json)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-$root/migrations}"
marker="-- migrate: no-transaction"

read -r version last < <(node -e '
  const { releases } = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
  const release = releases.at(-1);
  console.log(release.version, release.lastMigration);
' "$dir/releases.json")
if [ ! -f "$dir/$last.sql" ]; then
  echo "lint-migrations: releases.json names $last (release $version), which is not in $dir" >&2
  exit 1
fi
if [ -z "${1:-}" ] && git -C "$root" rev-parse -q --verify "refs/tags/$version" >/dev/null; then
  tagged="$(git -C "$root" ls-tree --name-only "$version" migrations/ | grep -E '/[0-9]{4}_.*\.sql$' | tail -1)"
  if [ "$tagged" != "migrations/$last.sql" ]; then
    echo "lint-migrations: releases.json says $version ends at $last; the tag ends at $tagged" >&2
    exit 1
  fi
fi

since="${last%%_*}"
in_transaction=()
no_transaction=()
for file in "$dir"/[0-9][0-9][0-9][0-9]_*.sql; do
  [ -e "$file" ] || continue
  number="$(basename "$file")"
  number="${number%%_*}"
  [ $((10#$number)) -gt $((10#$since)) ] || continue
  if [ "$(head -n 1 "$file" | tr -d '\r' | sed 's/[[:space:]]*$//')" = "$marker" ]; then
    no_transaction+=("$file")
  else
    in_transaction+=("$file")
  fi
done

total=$((${#in_transaction[@]} + ${#no_transaction[@]}))
status=0
# squawk lets a file of one concurrent statement pass, as if the migrator ran that file alone;
# this one runs it inside the transaction of the migrations around it, where it fails.
for file in "${in_transaction[@]}"; do
  if grep -v '^[[:space:]]*--' "$file" | grep -qiE '\bconcurrently\b'; then
    echo "$file: ban-concurrent-index-creation-in-transaction: CONCURRENTLY needs the first line '$marker'" >&2
    status=1
  fi
done
if [ ${#in_transaction[@]} -gt 0 ]; then
  npx --no-install squawk -c "$root/.squawk.toml" --assume-in-transaction "${in_transaction[@]}" || status=1
fi
if [ ${#no_transaction[@]} -gt 0 ]; then
  npx --no-install squawk -c "$root/.squawk.toml" --no-assume-in-transaction "${no_transaction[@]}" || status=1
fi
if [ "$status" -ne 0 ]; then
  echo "lint-migrations: a migration since $version ($last) takes a lock a live database would wait on;" >&2
  echo "see docs/adr/0120-migrations-that-do-not-lock.md for the safe forms" >&2
  exit 1
fi
echo "lint-migrations: $total migration(s) since $version ($last) pass"
