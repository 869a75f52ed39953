# One image for every touchbase service; docker-compose.yml picks the entry point.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PRISMA_HIDE_UPDATE_MESSAGE=1 CHECKPOINT_DISABLE=1
COPY package.json package-lock.json ./
COPY packages ./packages
COPY apps ./apps
COPY cli ./cli
COPY prisma ./prisma
COPY prisma.config.ts tsconfig.base.json ./
COPY scripts ./scripts
# npm install, not npm ci: see scripts/setup.mjs.
RUN npm install --no-audit --no-fund --include=dev && npm run build
USER node
# --optimize-for-size: V8 keeps its heap near what is live instead of growing it ahead
# of the allocation rate; a 100,000-row CSV import then peaks under 150 MB of RSS
# instead of ~250 MB (bench/csv-import.bench.ts, docs/scaling.md#memory-of-the-api).
CMD ["node", "--optimize-for-size", "cli/dist/main.mjs", "start"]
