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

test('a table says the pool or knockout Rust marks it with, and nothing unmarked', () => {
  assert.equal(tableGroup({ sides: [0, 1], pool: 0 }), 'Pool A');
  assert.equal(tableGroup({ sides: [55, 54], pool: 27 }), 'Pool AB');
  assert.equal(tableGroup({ sides: [2, 0], bracket: 'main' }), 'Main knockout');
  assert.equal(tableGroup({ sides: [1, 3], bracket: 'consolation' }), 'Consolation');
  // One knockout only, or another system: Rust marks nothing, and nothing is said.
  assert.equal(tableGroup({ sides: [0, 2] }), null);
  assert.equal(tableGroup({ sides: [0, 2], pool: null }), null);
});
