# syntax=docker/dockerfile:1
#
# One image for every Murmur process. Which one runs is chosen at start:
#   docker run -e SERVICE=identity murmur   → node services/identity/dist/main.js
#   docker run -e SERVICE=gateway  murmur   → node gateway/dist/main.js
#   docker run murmur                       → SERVICE=all: the single process (node cli/dist/main.js start)
# docker-compose.yml and deploy/base set the command explicitly instead (`node <entry>`), which
# replaces the default below while keeping tini as PID 1.
#
#   docker build -t murmur .

ARG NODE_IMAGE=node:20-bookworm-slim

# ---------------------------------------------------------------------------------------------
# build: install the whole workspace from the lockfile, compile every project reference, then
# reinstall production dependencies only.
FROM ${NODE_IMAGE} AS build
# Must match "packageManager" in package.json (deploy/test/manifests.test.ts checks it).
ARG PNPM_VERSION=10.34.8
ENV CI=true
RUN npm install --global --no-fund --no-audit "pnpm@${PNPM_VERSION}"
# better-sqlite3 (the embedded store, docs/adr/0017-embedded-store-sqlite.md) compiles from source when
# no prebuilt binary can be downloaded, as in this offline install.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src

# Fetch packages into the store from the lockfile alone, so this layer survives source edits.
COPY pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
RUN --mount=type=cache,id=murmur-pnpm-store,target=/pnpm/store \
    pnpm fetch --store-dir /pnpm/store

COPY . .
RUN --mount=type=cache,id=murmur-pnpm-store,target=/pnpm/store \
    pnpm install --frozen-lockfile --offline --store-dir /pnpm/store

RUN node node_modules/typescript/bin/tsc -b tsconfig.json

# Production dependencies only (the workspace's test, bench and deploy packages have none), then
# drop what the runtime never reads.
RUN --mount=type=cache,id=murmur-pnpm-store,target=/pnpm/store \
    rm -rf node_modules */node_modules */*/node_modules \
 && pnpm install --frozen-lockfile --offline --prod --store-dir /pnpm/store \
 && rm -rf test-e2e bench deploy docs scripts \
 && find . -path ./node_modules -prune -o -name '*.tsbuildinfo' -type f -exec rm -f {} +

# ---------------------------------------------------------------------------------------------
# runtime: no compiler, no package manager cache, no root.
FROM ${NODE_IMAGE} AS runtime
# tini is PID 1: it forwards SIGTERM to node (which drains and closes store and bus) and reaps
# zombies. Orchestrators probe /healthz and /readyz themselves, so there is no HEALTHCHECK.
RUN apt-get update \
 && apt-get install --yes --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*

ARG SERVICE=all
# HOST: a container is reached through its published ports, so every process in it listens on all of
# the container's interfaces; `murmur start` outside a container listens on 127.0.0.1 by default.
ENV NODE_ENV=production \
    SERVICE=${SERVICE} \
    HOST=0.0.0.0
WORKDIR /app
COPY --from=build /src /app
# Only the single process (SERVICE=all, embedded store) writes files, under /app/data; mount a
# volume there. Everything else is read-only and owned by root.
RUN mkdir -p /app/data && chown 1000:1000 /app/data

# The `node` user of the base image, by number so that Kubernetes can check runAsNonRoot.
USER 1000:1000
# gateway 8080, identity 8081, reader 8082, feeds 8083, microsub 8084, webmention 8085,
# archive 8086, publishing 8087, push 8088, federation 8089, websub 8090 (SERVICE_DEFAULT_PORTS in libs/core).
EXPOSE 8080-8090

ENTRYPOINT ["/usr/bin/tini", "--"]
# The single process and the gateway start with their heap floors (libs/core/src/heap.ts).
CMD ["/bin/sh", "-c", "case \"$SERVICE\" in all) exec node --initial-old-space-size=128 cli/dist/main.js start ;; gateway) exec node --initial-old-space-size=64 --max-semi-space-size=4 gateway/dist/main.js ;; *) exec node \"services/$SERVICE/dist/main.js\" ;; esac"]
