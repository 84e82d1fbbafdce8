// Lint config: typescript-eslint's recommended rules, plus the project's own
// boundary rule: commands never touch `process` or `console` (they get an IO).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'completions/', 'src/**/*.generated.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        performance: 'readonly',
        structuredClone: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // CommonJS on purpose: the start-up path (bin/, README "Performance") and its helpers.
    files: ['**/*.cjs', 'bin/cpk.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        __filename: 'readonly',
        exports: 'writable',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/commands/**/*.ts', 'src/api/**/*.ts', 'src/output/**/*.ts', 'src/http/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'process', message: 'Use the injected IO/context instead.' }],
      'no-console': 'error',
    },
  },
);
