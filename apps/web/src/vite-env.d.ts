/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Where the API lives; empty means the same origin (the dev server proxies /api). */
  readonly VITE_API_URL?: string
}
