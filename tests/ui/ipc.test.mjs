// ipc.js: what Rust refuses comes through as it is; what the shell refuses before a command
// runs (not the core's typed error) is said as a fault of the app, with the kind that says
// what happened to the history.
import { test } from 'node:test';
import assert from 'node:assert/strict';

let answer = null;
globalThis.window = { __TAURI__: { core: { invoke: async () => { throw answer; } } } };
const { ipc } = await import('../../ui/js/ipc.js');

test("the core's typed refusal comes through as it is", async () => {
  answer = { kind: 'not_found', detail: 'no match 7', code: 'no_match' };
  await assert.rejects(ipc.getMatch(7), (e) => e === answer);
});

test('an argument of the wrong type is a call refused before it ran, not a storage failure', async () => {
  answer = 'invalid args `matchId` for command `get_match`: invalid type: string "7", expected i64';
  await assert.rejects(ipc.getMatch('7'), (e) => e.kind === 'bad_action' && e.code === 'fault' && e.detail === answer);
});

test('any other failure of the shell is said as a fault', async () => {
  answer = 'the window is gone';
  await assert.rejects(ipc.home(), (e) => e.kind === 'storage' && e.code === 'fault');
});
