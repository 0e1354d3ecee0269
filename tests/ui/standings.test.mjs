// The standings' pure parts: pool names and what a table of a pools tournament is part of.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.navigator = { language: 'en' };
globalThis.document = { documentElement: {} };
const { poolLetters, tableGroup } = await import('../../ui/js/standings.js');

test('pools are named A to Z, then AA, AB and on, never twice', () => {
  assert.deepEqual([0, 1, 25, 26, 27, 51, 52, 701, 702].map(poolLetters), ['A', 'B', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
  const names = new Set(Array.from({ length: 1000 }, (_, i) => poolLetters(i)));
  assert.equal(names.size, 1000);
});

test('a table says its pool while the pools play, its knockout once there are two', () => {
  const pools = Array.from({ length: 28 }, (_, i) => [2 * i, 2 * i + 1]);
  const playing = { pools, bracket: { main: [], consolation: [] } };
  assert.equal(tableGroup(playing, { sides: [0, 1] }), 'Pool A');
  assert.equal(tableGroup(playing, { sides: [55, 54] }), 'Pool AB');
  const knockouts = { pools, bracket: { main: [[{ sides: [0, 2] }]], consolation: [[{ sides: [1, 3] }]] } };
  assert.equal(tableGroup(knockouts, { sides: [2, 0] }), 'Main knockout');
  assert.equal(tableGroup(knockouts, { sides: [1, 3] }), 'Consolation');
  // One knockout only, or another system: nothing to tell apart.
  assert.equal(tableGroup({ pools, bracket: { main: [[{ sides: [0, 2] }]], consolation: [] } }, { sides: [0, 2] }), null);
  assert.equal(tableGroup({ pairings: [] }, { sides: [0, 1] }), null);
});
