import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/**
 * One clock: production code reads the time through the clock it is given (shared/time/: `Clock`, `dateTimeNow`), never
 * from the system behind its back, so that a test moves time itself and a busy machine cannot make it late.
 * test/infra/clock-rule.test.ts shows that it bites.
 */
export const oneClock = {
  files: ['functions/**/*.ts', 'shared/**/*.ts'],
  ignores: ['shared/time/**'],
  rules: {
    'no-restricted-properties': [
      'error',
      { object: 'Date', property: 'now', message: 'Read the time from the Clock passed in (shared/time/clock.ts)' },
      {
        object: 'DateTime',
        property: 'now',
        message: 'Read the time from the clock passed in (shared/time/date-time.ts, dateTimeNow)',
      },
    ],
  },
};

/**
 * typescript-eslint's type-checked recommended rules everywhere, with the formatting rules left to Prettier.
 * `npm test` runs this with zero findings allowed (local/check.ts).
 */
export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.local/**',
      'coverage/**',
      'clients/typescript/dist/**',
      'clients/typescript/src/schema.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.json', './tsconfig.test.json', './clients/typescript/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // `_` names what destructuring leaves out on purpose (`const { efficacy: _, ...rest } = fields`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      parserOptions: { project: false, projectService: false, program: null },
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
      },
    },
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
  },
  oneClock,
  {
    // Tests read answers as parsed JSON and compare them with expectations: typing every body would only add casts.
    // Test doubles implement async ports with bodies that need no await, and jest takes methods unbound.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  prettier,
);
