// Lint config: typescript-eslint's recommended rules, plus the project's own
// boundaries: commands never touch `process` or `console` (they get an IO),
// and imports only run down the layers (docs/architecture.md, "Layers"):
//   src/core/      HTTP, the service's endpoints, errors, JSON, redaction, IO
//   src/parse/     input parsing (durations, --set, ids, records): on core
//   src/output/ config/ manifest/ completion/ emulator/: on core and parse,
//                  never on the CLI or a command
//   src/cli/       main, program, context, plumbing; src/commands/<noun>/<verb>.ts
//   src/gen/       build-time generators: may read the command tree
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** A no-restricted-imports rule refusing specifiers that reach into these folders of src/. */
function layer(message, ...folders) {
  return [
    'error',
    {
      patterns: [
        {
          regex: `(^|/)(${folders.join('|')})(/|\\.js$)`,
          message,
        },
      ],
    },
  ];
}
const EDGES = ['output', 'config', 'manifest', 'completion', 'emulator'];
const TOP = ['cli', 'commands', 'gen'];

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'coverage/',
      'completions/',
      'reports/',
      '.stryker-tmp/',
      'src/**/*.generated.js',
    ],
  },
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
    // import() of node:http or node:https builds the module's ES facade, which
    // reads every export; node:http's lazy WebSocket export then loads Node's
    // own undici (~8 MiB, ~15 ms on Node 26). A static import or require does not.
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression[source.value=/^node:https?$/]',
          message:
            "Import node:http(s) statically, or with require where it must stay lazy: import() loads Node's undici.",
        },
      ],
    },
  },
  {
    files: ['src/commands/**/*.ts', 'src/core/api/**/*.ts', 'src/output/**/*.ts', 'src/core/http/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'process', message: 'Use the injected IO/context instead.' }],
      'no-console': 'error',
    },
  },
  {
    files: ['src/core/**/*.ts', 'src/index.ts'],
    rules: {
      'no-restricted-imports': layer(
        'src/core is the bottom layer: it imports nothing else from src/',
        'parse',
        ...EDGES,
        ...TOP,
      ),
    },
  },
  {
    files: ['src/parse/**/*.ts'],
    rules: { 'no-restricted-imports': layer('src/parse sits on src/core only', ...EDGES, ...TOP) },
  },
  {
    files: EDGES.map((edge) => `src/${edge}/**/*.ts`),
    rules: {
      'no-restricted-imports': layer('output, config, manifest, completion and emulator never import the CLI', ...TOP),
    },
  },
  {
    files: ['src/cli/**/*.ts', 'src/commands/**/*.ts'],
    rules: { 'no-restricted-imports': layer('the CLI does not import the build-time generators', 'gen') },
  },
  {
    files: ['src/commands/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '(^|/)cli/(main|program)\\.js$', message: 'a command never imports the program or main' },
            { regex: '(^|/)gen/', message: 'the CLI does not import the build-time generators' },
          ],
        },
      ],
    },
  },
);
