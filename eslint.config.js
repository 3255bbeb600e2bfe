import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import importPlugin from 'eslint-plugin-import'
import checkFile from 'eslint-plugin-check-file'
import reactHooks from 'eslint-plugin-react-hooks'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import globals from 'globals'

const webFeatures = [
  'auth',
  'activity',
  'dispatches',
  'reports',
  'courses',
  'course-requests',
  'companies',
  'users',
  'activity-logs',
  'settings',
  'alerts',
  'learners',
  'charts',
]

// A role-gated affordance asks a permission, never a role literal (see below).
const noRoleLiterals = ['left', 'right'].map((side) => ({
  selector: `BinaryExpression[operator=/^[!=]==?$/] > Literal.${side}[value=/^(admin|internal|sales|client)$/]`,
  message: "Ask a permission (can(role, '…') or ownCompanyOnly(role) from @portal/shared), not a role literal.",
}))

const noSqlOutsideRepositories = {
  group: ['drizzle-orm', 'drizzle-orm/*', '**/db/schema', '**/db/schema/*'],
  message: 'SQL lives in a repository (or a *.sql.ts beside it) or in db/; services receive repositories from app.ts.',
  allowTypeImports: true,
}
const onlyRepositoriesReadSqlFiles = {
  group: ['./*.sql', '../*/*.sql', '../../modules/*/*.sql'],
  message: "A *.sql.ts is read by its module's repository (services receive the repository from app.ts).",
  allowTypeImports: true,
}
const noOtherModulesRepository = {
  group: ['../*/*.repository', '../../modules/*/*.repository'],
  message: "Another module's repository is handed in by app.ts (import its type only).",
  allowTypeImports: true,
}

export default tseslint.config(
  {
    ignores: [
      'tmp-scratch/**',
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'bench/results/**',
      'playwright-report/**',
      'test-results/**',
      '**/migrations/meta/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { import: importPlugin, 'check-file': checkFile },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      // Dependencies are not walked (no-cycle would parse all of node_modules).
      'import/ignore': ['node_modules'],
      'import/external-module-folders': ['node_modules'],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-empty': ['error', { allowEmptyCatch: false }],
      'import/no-duplicates': 'error',
      // docs/architecture.md §8: kebab-case files and folders.
      'check-file/filename-naming-convention': [
        'error',
        { '**/*.{ts,tsx}': 'KEBAB_CASE' },
        { ignoreMiddleExtensions: true },
      ],
      'check-file/folder-naming-convention': ['error', { '{apps,packages}/*/src/**/': 'KEBAB_CASE' }],
    },
  },
  // No import cycles in the product's source.
  {
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // A role-gated affordance asks a permission (can(), ownCompanyOnly() in
  // packages/shared/src/permissions.ts), never a role literal. Tests may name roles.
  {
    files: ['apps/*/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '**/*.test-support.ts', 'apps/server/src/test/**', 'apps/web/src/testing/**'],
    rules: {
      'no-restricted-syntax': ['error', ...noRoleLiterals],
    },
  },
  // packages/shared runs on both sides: no Node or DOM APIs, no imports from apps.
  {
    files: ['packages/shared/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*', '@portal/server', '@portal/web', '**/apps/**'] }],
    },
  },
  // The server: nothing but the scorm-cloud module speaks to SCORM Cloud (docs/architecture.md).
  {
    files: ['apps/server/src/**/*.ts'],
    rules: {
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './apps/server/src', from: './apps/web' },
            { target: './apps/server/src/db', from: './apps/server/src/modules' },
            { target: './apps/server/src/lib', from: './apps/server/src/modules' },
            // Plugins are cross-cutting; what they need from a module is handed to them.
            { target: './apps/server/src/plugins', from: './apps/server/src/modules' },
            // Other modules use dispatches through its service and the dispatch actions it owns
            // (a request's fulfilment creates a dispatch); shared helpers live in lib/ and db/.
            {
              target: './apps/server/src/modules/!(dispatches)/**',
              from: './apps/server/src/modules/dispatches',
              except: [
                './dispatches.service.ts',
                './dispatches.mapper.ts',
                './dispatch-conflict.ts',
                './dispatch-create.service.ts',
                './dispatch-mirror.service.ts',
                './dispatch-pair.repository.ts',
                './dispatches.test-data.ts',
                './dispatch-actions.test-support.ts',
              ],
              message: 'Shared pieces live in lib/ (pure code) or db/ (SQL), not in modules/dispatches.',
            },
            // Alerts queue their mails through the mail module; mail never reaches back into alerts.
            {
              target: './apps/server/src/modules/mail',
              from: './apps/server/src/modules/alerts',
              message: 'modules/mail does not import modules/alerts (alerts depend on mail, one way).',
            },
          ],
        },
      ],
    },
  },
  // One repository shape: SQL (the Drizzle builder, the schema) lives in repositories, in a
  // `*.sql.ts` beside one, and in db/; a module reaches another module's data through what app.ts
  // hands it (a repository or a service, typed by an import type), never by importing that
  // module's repository.
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      '**/*.repository.ts',
      '**/*.sql.ts',
      'apps/server/src/db/**',
      '**/*.test.ts',
      '**/*.test-support.ts',
      '**/*.test-data.ts',
      'apps/server/src/test/**',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [noSqlOutsideRepositories, noOtherModulesRepository, onlyRepositoriesReadSqlFiles] },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.sql.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [noOtherModulesRepository] }],
    },
  },
  // layers: a route handler reaches data through its service only.
  {
    files: ['apps/server/src/**/*.routes.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/*.repository', '**/db/schema', '**/db/schema/*', 'drizzle-orm', 'drizzle-orm/*'],
              message: 'Routes call their service; data access lives in repositories.',
              allowTypeImports: true,
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='app'][property.name='db']",
          message: 'Routes call their service, which is handed the database in app.ts.',
        },
        ...noRoleLiterals,
      ],
    },
  },
  // A repository reads its own tables; SQL shared by modules lives in db/.
  {
    files: ['apps/server/src/**/*.repository.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/*.repository'],
              message: 'Shared SQL belongs in db/ (e.g. db/columns.ts, db/search.ts), not in another repository.',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  // Production code imports nothing from the simulator; demo mode alone loads it, with
  // a dynamic import (modules/demo/demo-simulator.ts). Tests and their support files may.
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test-support.ts', 'apps/server/src/test/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@portal/scorm-cloud-sim', '@portal/scorm-cloud-sim/*'],
              message: 'Production code does not import the simulator (demo mode loads it with a dynamic import).',
            },
          ],
        },
      ],
    },
  },
  // The web app (bulletproof-react): shared → features → app; features never import each other.
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    // The web app imports through the `@/` alias of its tsconfig; with the node resolver alone
    // those imports resolve to nothing, and the feature boundaries and the cycle check below
    // cannot see them.
    settings: {
      'import/resolver': { typescript: { project: 'apps/web/tsconfig.json' } },
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.configs.recommended.rules,
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            ...webFeatures.map((feature) => ({
              target: `./apps/web/src/features/${feature}`,
              from: './apps/web/src/features',
              except: [`./${feature}`],
            })),
            { target: './apps/web/src/features', from: './apps/web/src/app' },
            {
              target: [
                './apps/web/src/components',
                './apps/web/src/hooks',
                './apps/web/src/lib',
                './apps/web/src/types',
                './apps/web/src/utils',
                './apps/web/src/config',
              ],
              from: ['./apps/web/src/features', './apps/web/src/app'],
            },
            { target: './apps/web/src', from: './apps/server' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'e2e/**/*.ts', 'scripts/**', 'bench/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
)
