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
CMD ["node", "cli/dist/main.mjs", "start"]
