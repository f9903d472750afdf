# The Mnemograph API and worker. Neo4j and Ollama run as their own services (docker-compose.yml).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc codegen.ts schema.graphql tsconfig.json ./
# npm ci's postinstall also builds the memory explorer (explorer/ → explorer/dist).
COPY explorer ./explorer
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4000
WORKDIR /app
# The official image's unprivileged user: the service needs no root; the code stays root's, the
# user owns only transformers.js's download cache (the model is fetched there on first start).
COPY --from=build /app /app
RUN mkdir -p /app/node_modules/@huggingface/transformers/.cache \
  && chown -R node:node /app/node_modules/@huggingface/transformers/.cache
USER node
# With internet, the embedding model downloads once into the volume; set EMBEDDING_MODEL_DIR
# to a mounted folder (see `npm run model:provision`) to stay offline.
EXPOSE 4000
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=6 \
  CMD node -e "fetch('http://127.0.0.1:4000/health/ready').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
CMD ["node", "dist/src/main.js"]
