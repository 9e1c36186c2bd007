# syntax=docker/dockerfile:1
# Multi-stage build: compile native modules and the client with dev tools, ship only what runs.

FROM node:26.10.0-slim AS build
WORKDIR /app
# Node's version is the one in .node-version. better-sqlite3, argon2 and sharp ship prebuilt Node-API
# binaries; the compilers are here for a platform they do not cover.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:26.10.0-slim AS runtime
WORKDIR /app
# Production needs PUBLIC_URL, Razorpay keys (or ALLOW_PAYMENT_SIMULATOR=true) and RESEND_API_KEY (or
# ALLOW_FILE_MAILBOX=true); a start without them lists every one missing and exits (README "Run it for real").
# HOST: inside a container every interface (which ports reach it is decided by publishing them); without
# it, TRUST_PROXY=true would mean 127.0.0.1, unreachable from Caddy. compose.yaml sets it again, since an
# empty HOST= in .env would override this.
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/app/data
COPY --from=build --chown=node:node /app/package.json /app/.npmrc ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/src-server ./src-server
COPY --from=build --chown=node:node /app/shared ./shared
COPY --from=build --chown=node:node /app/migrations ./migrations
COPY --from=build --chown=node:node /app/migrations-pg ./migrations-pg
COPY --from=build --chown=node:node /app/scripts ./scripts
# The data folder (database, app secret, backups) belongs to the image's `node` user, uid 1000: a bind
# mount must be owned by that uid (chown -R 1000:1000 ./data); a named volume is set up from this folder.
# uploads/ exists in the image so that a volume mounted there alone (deploy/compose.postgres.yaml's shared
# uploads) starts owned by `node` too, not by root.
RUN mkdir -p /app/data/uploads && chown -R node:node /app/data
USER node
VOLUME ["/app/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The server itself is the container's process (no npm, sh or tsx CLI in between), so `docker stop`'s
# SIGTERM reaches it: it stops taking requests, answers those in flight (10 s at most) and closes the
# database. tsx runs inside the same process as a loader.
CMD ["node", "--import", "tsx", "src-server/index.ts"]
