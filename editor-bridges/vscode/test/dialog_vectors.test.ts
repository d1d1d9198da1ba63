// The shared dialog test vectors (tests/dialog/*.json, README.md there) replayed against the VS
// Code panel's model, as the terminal's and Neovim's models replay them: one case per vector. The
// replay is tests/dialog/replay_model.js, shared with the page of askhost web
// (tests/web/dialog_vectors.test.mjs).
import * as path from 'node:path';
import * as model from '../../shared/model';

// out/vscode/test/ -> the repository root.
const REPLAY = path.resolve(__dirname, '..', '..', '..', '..', '..', 'tests', 'dialog', 'replay_model.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { replayVectors } = require(REPLAY) as {
  replayVectors: (m: typeof model, o: { title: string; view: Parameters<model.DialogModel['view']>[0] }) => void;
};

replayVectors(model, { title: 'dialog vectors (tests/dialog)', view: { askKey: 'vectors', agent: 'test' } });
