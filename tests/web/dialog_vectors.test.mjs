// The shared dialog vectors (tests/dialog/*.json, README.md there) replayed against the page's
// build of the dialog model: host/web/page/dist/model.js, the very file askhost web serves (built
// from editor-bridges/shared/model.ts, the VS Code panel's model). The replay is
// tests/dialog/replay_model.js, as for editor-bridges/vscode/test/dialog_vectors.test.ts, here over
// the ES module the browser loads.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MODEL = path.resolve(HERE, '..', '..', 'host', 'web', 'page', 'dist', 'model.js');
const { replayVectors } = createRequire(import.meta.url)('../dialog/replay_model.js');

// dist/ has no package.json saying "module": the served bytes are imported as they are.
const model = await import('data:text/javascript;base64,' + fs.readFileSync(MODEL).toString('base64'));

replayVectors(model, {
  title: 'dialog vectors (tests/dialog) in the page (host/web/page/dist/model.js)',
  view: { askKey: 'vectors', agent: 'test', notes: true, renderPreview: (p) => p },
});
