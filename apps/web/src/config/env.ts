/**
 * Client env, checked once at start-up (bulletproof-react `src/config/env.ts`).
 * A bad value stops the app with a message naming the variable instead of failing later.
 */
function parseApiUrl(value: string | undefined): string {
  const url = (value ?? '').trim().replace(/\/+$/, '')
  if (url === '' || url.startsWith('/') || /^https?:\/\//.test(url)) return url
  throw new Error(`VITE_API_URL must be empty, a path, or an http(s) URL; got "${value}".`)
}

export const env = {
  API_URL: parseApiUrl(import.meta.env.VITE_API_URL),
} as const
