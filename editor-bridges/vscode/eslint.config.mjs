// ESLint for the extension (npm run lint; the meson test `lint eslint`): typescript-eslint's
// recommended rules over the extension, its webview and its tests.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', 'webview/out/**', 'media/**', 'node_modules/**', '*.vsix'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The tests stand in for VS Code's own API (test/fake-vscode.ts) and reach into what it
    // recorded: a loose type there is the point of a fake.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
