# The service's image: the Node server as its start bundle, production dependencies only,
# running as the unprivileged `node` user with its data under /data (docs/deploy.md,
# docs/adr/0115-the-image.md).
#
#   docker build -t trade-assistant .          # FROM the public Node 20 image
#   podman build --format docker --build-arg NODE_IMAGE=localhost/node-base:20 -t trade-assistant .
#
# NODE_IMAGE is any Debian-based image with Node >= 20 at /usr/local/bin and a `node` user
# (uid 1000): the public image, or the one scripts/image/build-base.sh makes from Debian's
# packages where no registry is reachable. `--format docker` keeps the HEALTHCHECK under podman.
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Dependencies first: this layer is reused until the lockfile changes. No install scripts: the
# package's own postinstall needs the sources (run below, as separate steps), and of the
# dependencies' scripts only esbuild's matters here. npm ci refuses a lockfile that lacks
# other platforms' optional packages (squawk-cli's) where the registry does not serve them;
# npm install still installs the locked versions (as .ci/run does).
# Behind a TLS-inspecting proxy, pass its CA bundle as a build secret (never stored in a layer):
#   --secret id=npm_ca,src=/etc/ssl/certs/ca-certificates.crt
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm --mount=type=secret,id=npm_ca \
    if [ -s /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi \
    && { npm ci --ignore-scripts --no-audit --no-fund \
      || npm install --ignore-scripts --no-audit --no-fund; } \
    && npm rebuild esbuild
COPY tsconfig.json ./
COPY migrations ./migrations
COPY scripts ./scripts
COPY src ./src
# The migrated PGlite image (a fresh embedded DATA_DIR starts from it), then the bundles. The
# image step reports a failure without failing, so its file is checked here.
# npm prune resolves the tree again (from the cache where it can: hence the same mounts).
RUN --mount=type=cache,target=/root/.npm --mount=type=secret,id=npm_ca \
    if [ -s /run/secrets/npm_ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/npm_ca; fi \
    && npx tsx scripts/build-pglite-image.ts \
    && ls node_modules/.cache/pglite/*.tar.gz >/dev/null \
    && node scripts/image/build-bundles.mjs \
    && npm prune --omit=dev --prefer-offline --no-audit --no-fund

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    APP_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# Owned by root and read-only to the service: it writes only under /data.
COPY --from=build /app/package.json ./
COPY --from=build /app/migrations ./migrations
COPY --from=build /app/node_modules ./node_modules
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 3000
STOPSIGNAL SIGTERM
# /health answers from the listener itself (no database round trip); no curl in slim images.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 3000}/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself is the process (not npm), so SIGTERM reaches the server's drain. Also in the image:
#   node node_modules/.cache/app/migrate.mjs             (npm run db:migrate)
#   node node_modules/.cache/app/admin-grant.mjs EMAIL   (npm run admin:grant -- EMAIL)
CMD ["node", "--enable-source-maps", "node_modules/.cache/app/server.mjs"]
