// The shared text vectors (tests/text/*.json, README.md there) replayed against the page's build of
// the text rules: host/web/page/dist/text.js, the very file askhost web serves (built from
// editor-bridges/shared/text.ts, the VS Code panel's). The replay is
// tests/text/replay_text.js, as for editor-bridges/vscode/test/text_vectors.test.ts.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TEXT = path.resolve(HERE, '..', '..', 'host', 'web', 'page', 'dist', 'text.js');
const { replayTextVectors } = createRequire(import.meta.url)('../text/replay_text.js');

// dist/ has no package.json saying "module": the served bytes are imported as they are.
const text = await import('data:text/javascript;base64,' + fs.readFileSync(TEXT).toString('base64'));

replayTextVectors(text, { title: 'text vectors (tests/text) in the page (host/web/page/dist/text.js)' });
