// The shared text vectors (tests/text/*.json, README.md there) replayed against the rules the
// panel and the page show agent text by (editor-bridges/shared/text.ts) and the bridge's command-line splitter
// (src/cmdline.ts), as the host and Neovim replay them.
// The replay is tests/text/replay_text.js, shared with the page (tests/web/text_vectors.test.mjs).
import * as path from 'node:path';
import { splitCommandLine } from '../src/cmdline';
import * as text from '../../shared/text';

// out/vscode/test/ -> the repository root.
const REPLAY = path.resolve(__dirname, '..', '..', '..', '..', '..', 'tests', 'text', 'replay_text.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { replayTextVectors } = require(REPLAY) as {
  replayTextVectors: (t: typeof text, o: { title: string; splitCommandLine?: (line: string) => string[] }) => void;
};

replayTextVectors(text, { title: 'text vectors (tests/text)', splitCommandLine });
