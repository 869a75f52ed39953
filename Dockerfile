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
# V8 flags sizing the heap by what is live rather than by the allocation rate (a 1 MB
# young generation instead of 16 MB, the old one grown by 25% after each full
# collection): a 100,000-row CSV import then peaks under 150 MB of RSS instead of
# ~260 MB. Why and at what cost: docs/scaling.md#memory-of-the-api.
CMD ["node", "--max-semi-space-size=1", "--heap-growing-percent=25", "cli/dist/main.mjs", "start"]
