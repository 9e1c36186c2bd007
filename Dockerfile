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
# Set PUBLIC_URL (required in production) with `docker run -e PUBLIC_URL=https://your.domain`.
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/app/data
COPY --from=build --chown=node:node /app/package.json /app/.npmrc ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/src-server ./src-server
COPY --from=build --chown=node:node /app/shared ./shared
COPY --from=build --chown=node:node /app/migrations ./migrations
COPY --from=build --chown=node:node /app/scripts ./scripts
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME ["/app/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s CMD node -e "fetch('http://127.0.0.1:3000/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# Run with `docker run --init` (or tini) so SIGTERM reaches the server for a graceful shutdown.
CMD ["npm", "start"]
