// For users with internet access who prefer Prisma's own CLI (`npx prisma migrate
// deploy`); touchbase itself applies prisma/migrations with packages/db's runner.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/touchbase' },
});
