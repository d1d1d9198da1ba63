// ESLint for the TypeScript the VS Code panel and the page of askhost web share (the meson test
// `lint eslint`): the rules the VS Code bridge's code follows, from that bridge's npm packages.
import js from '../vscode/node_modules/@eslint/js/src/index.js';
import tseslint from '../vscode/node_modules/typescript-eslint/dist/index.js';

export default tseslint.config(
  { ignores: ['eslint.config.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
);
