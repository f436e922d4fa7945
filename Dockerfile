# Every service's image, from the repository root (the workspace is the build context):
#   docker build --build-arg SERVICE=jobs --build-arg PORT=4003 -t marketplace/jobs .
# NODE_IMAGE is the Node.js 24 image to build on: the official node:24-bookworm-slim where
# Docker Hub is reachable, marketplace/node:local (infra/images/build.sh, from package
# registries only) where it is not.
# SERVICE is a folder of services/ (package @marketplace/<SERVICE>); PORT is the port it
# listens on (docker-compose.yml's build args hold the table). The gateway's image also
# carries the web app it serves. Needs BuildKit (the default builder since Docker Engine 23)
# for the cache mounts. docs/compose-and-kubernetes.md explains every step.

ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: install the whole workspace, build the service and what it depends on ----
FROM ${NODE_IMAGE} AS build
ARG PNPM_VERSION=10.34.9
ENV CI=true \
    TURBO_TELEMETRY_DISABLED=1
# npm, not corepack: corepack's signature check fails against registry mirrors.
RUN npm install -g "pnpm@${PNPM_VERSION}" && npm cache clean --force
WORKDIR /repo
COPY . .
RUN --mount=type=cache,id=marketplace-pnpm-store,target=/pnpm/store \
    pnpm install --frozen-lockfile --store-dir /pnpm/store
# Every service and the web app, built once: the steps up to here take no build argument, so
# BuildKit shares them between all the services' builds, and each image only deploys its own.
RUN pnpm turbo run build --filter='./services/*' --filter=@marketplace/web --output-logs=errors-only
# Declared only now: a build argument is in every later RUN's cache key.
ARG SERVICE
ARG PORT
RUN test -n "${PORT}" && test -f "services/${SERVICE}/package.json" \
 || { echo "build with --build-arg SERVICE=<a folder of services/> --build-arg PORT=<its port>" >&2; exit 1; }
# A self-contained copy: production dependencies only, workspace packages copied in (their
# package.json "files" is dist/). Of the service's own folder only what runs stays: dist/,
# node_modules/ and package.json (deploy copies the whole package: sources, tests, configs). pnpm 10 deploys only "injected" workspaces; the setting is
# given here, for this command, so the shared lockfile stays as it is. /image keeps the
# repository's layout, so the gateway finds the web app at its default WEB_DIST_DIR
# (../../apps/web/dist from its package) as it does in a checkout.
RUN --mount=type=cache,id=marketplace-pnpm-store,target=/pnpm/store \
    mkdir -p /image/services \
 && pnpm --config.inject-workspace-packages=true "--filter=@marketplace/${SERVICE}" \
      deploy --prod --store-dir /pnpm/store "/image/services/${SERVICE}" \
 && find "/image/services/${SERVICE}" -mindepth 1 -maxdepth 1 \
      ! -name dist ! -name node_modules ! -name package.json -exec rm -rf {} + \
 && if [ "${SERVICE}" = gateway ]; then \
      mkdir -p /image/apps/web && cp -R apps/web/dist /image/apps/web/dist; \
    fi

# ---- runtime: Node and the deployed service, nothing else ----
FROM ${NODE_IMAGE} AS runtime
ARG SERVICE
ARG PORT
ENV NODE_ENV=production \
    SERVICE_NAME=${SERVICE} \
    HOST=0.0.0.0 \
    PORT=${PORT} \
    LOG_LEVEL=info
# Owned by root and only readable by the process: it never writes to its own code.
COPY --from=build /image /app
WORKDIR /app/services/${SERVICE}
# A numeric user (the base images' `node`, 1000): Kubernetes' runAsNonRoot can check it
# without reading /etc/passwd.
USER 1000:1000
EXPOSE ${PORT}
# /healthz is liveness only (no I/O); readiness (/readyz) is for orchestrators' routing.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/server.js"]
