import { defineConfig } from 'drizzle-kit'

// `npx drizzle-kit generate` writes the next numbered SQL migration from src/db/schema.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './src/db/migrations',
})
