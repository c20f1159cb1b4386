#!/usr/bin/env bash
# The image's base without a registry: Debian bookworm (minbase, from Debian's packages, by
# mmdebstrap) with this machine's Node 20 and npm copied to where the public node image keeps
# them (/usr/local), and a `node` user (uid 1000) as there, imported as BASE_IMAGE
# (default localhost/node-base:20). Debian's own nodejs is 18; the app needs 20.
#
# Built once per input: the key hashes this script, the node binary and npm's version. The
# tarball is kept under IMAGE_CACHE_DIR (outside the repo) so a wiped podman store re-imports it
# in seconds instead of running mmdebstrap again (~1-2 min). BASE_REFRESH=1 rebuilds anyway
# (to pick up Debian's security updates).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
export CONTAINERS_CONF="${CONTAINERS_CONF:-$here/containers.conf}"
tag="${BASE_IMAGE:-localhost/node-base:20}"
cache="${IMAGE_CACHE_DIR:-/var/tmp/trade-assistant-image}"
node_bin="$(readlink -f "$(command -v node)")"
npm_dir="$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")"

case "$("$node_bin" --version)" in
  v2[0-9].*) ;;
  *) echo "build-base: $node_bin is $("$node_bin" --version); the app needs Node >= 20" >&2; exit 1 ;;
esac

key="$(
  {
    cat "$0"
    sha256sum "$node_bin"
    node -p 'require(process.argv[1] + "/package.json").version' "$npm_dir"
  } | sha256sum | cut -c1-16
)"
tarball="$cache/node-base-$key.tar"

if [ -z "${BASE_REFRESH:-}" ] \
  && [ "$(podman image inspect --format '{{index .Labels "base.key"}}' "$tag" 2>/dev/null)" = "$key" ]; then
  echo "base $tag is current ($key)"
  exit 0
fi

mkdir -p "$cache"
if [ -n "${BASE_REFRESH:-}" ] || [ ! -s "$tarball" ]; then
  rm -rf "$cache"/node-base-*.tar "$cache"/partial-*
  # The hooks run outside the new root with its path as $1 (root mode).
  mmdebstrap --variant=minbase --include=ca-certificates,passwd,libstdc++6 \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    --customize-hook='mkdir -p "$1/usr/local/bin" "$1/usr/local/lib/node_modules"' \
    --customize-hook="cp '$node_bin' \"\$1/usr/local/bin/node\"" \
    --customize-hook="cp -a '$npm_dir' \"\$1/usr/local/lib/node_modules/npm\"" \
    --customize-hook='ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"' \
    --customize-hook='ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"' \
    --customize-hook='chroot "$1" groupadd --gid 1000 node' \
    --customize-hook='chroot "$1" useradd --uid 1000 --gid node --shell /bin/bash --create-home node' \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*' \
    bookworm "$cache/partial-$key.tar" \
    "deb http://deb.debian.org/debian bookworm main" \
    "deb http://deb.debian.org/debian bookworm-updates main" \
    "deb http://deb.debian.org/debian-security bookworm-security main"
  mv "$cache/partial-$key.tar" "$tarball"
fi

podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$("$node_bin" --version | cut -c2-)" \
  --change "LABEL base.key=$key" \
  --change 'CMD ["node"]' \
  "$tarball" "$tag" >/dev/null
echo "base $tag imported ($key, $(du -h "$tarball" | cut -f1) tarball)"
