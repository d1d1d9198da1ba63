// ESLint for the page's TypeScript (the meson test `web eslint`): the rules the VS Code bridge's
// code follows (typescript-eslint's recommended), from that bridge's npm packages.
import js from '../../../editor-bridges/vscode/node_modules/@eslint/js/src/index.js';
import tseslint from '../../../editor-bridges/vscode/node_modules/typescript-eslint/dist/index.js';

export default tseslint.config(
  { ignores: ['dist/**', 'build.mjs', 'eslint.config.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
);
