// Lint config: typescript-eslint's recommended rules over every file, and over the TypeScript
// files, type-aware rules: a promise nobody awaits or handles is an error (its failure would go
// unnoticed).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', '.astro/', 'node_modules/', '.data/', 'test-results/', 'bench-work/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  {
    // The hub's core gets its network and DNS check injected; only types may come from the client.
    files: ['src/hub/{hub,context,admission,publish,worker,verify,deliver}.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: './http-client.ts',
              message: 'pass the fetcher and resolveCallback in the hub options instead',
              allowTypeImports: true,
            },
          ],
          patterns: [
            {
              group: ['node:dns', 'node:net', 'node:https', 'node:http'],
              message: 'the hub core does no network I/O of its own',
            },
          ],
        },
      ],
    },
  },
);
