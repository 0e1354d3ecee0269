// The standings' pure parts: pool names and what a table of a pools tournament is part of.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.navigator = { language: 'en' };
globalThis.document = { documentElement: {} };
const { poolLetters, tableGroup, groups, namesInPools, championText } = await import('../../ui/js/standings.js');

test('pools are named A to Z, then AA, AB and on, never twice', () => {
  assert.deepEqual([0, 1, 25, 26, 27, 51, 52, 701, 702].map(poolLetters), ['A', 'B', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
  const names = new Set(Array.from({ length: 1000 }, (_, i) => poolLetters(i)));
  assert.equal(names.size, 1000);
});

test('a table says the pool or knockout Rust groups it in, and nothing outside a group', () => {
  const pools = { table_groups: [{ pool: 0, tables: [0, 1] }, { pool: 27, tables: [2] }] };
  assert.equal(tableGroup(pools, { table: 1, sides: [0, 1] }), 'Pool A');
  assert.equal(tableGroup(pools, { table: 2, sides: [55, 54] }), 'Pool AB');
  const knockouts = { table_groups: [{ bracket: 'main', tables: [0] }, { bracket: 'consolation', tables: [1] }] };
  assert.equal(tableGroup(knockouts, { table: 0, sides: [2, 0] }), 'Main knockout');
  assert.equal(tableGroup(knockouts, { table: 1, sides: [1, 3] }), 'Consolation');
  // One knockout only, or another system: no groups, and nothing is said.
  assert.equal(tableGroup({ table_groups: [] }, { table: 0, sides: [0, 2] }), null);
  assert.equal(tableGroup({}, { table: 0, sides: [0, 2] }), null);
  assert.equal(tableGroup(pools, { table: 7, sides: [0, 2] }), null);
});

test('while the pools play the standings go pool by pool, the withdrawn with no place', () => {
  const row = (entrant, pool, rank, withdrawn = false) => ({ entrant, name: `E${entrant}`, rank: entrant + 1, pool, pool_rank: rank, withdrawn });
  const summary = {
    standings: [
      row(0, 1, 1), row(1, 0, 1), row(2, 0, undefined, true), row(3, undefined, undefined, true), row(4, 0, 2), row(5, 1, 2),
    ],
  };
  const got = groups(summary).map((g) => [g.label, g.rows.map((r) => `${r.rank} E${r.entrant}`)]);
  assert.deepEqual(got, [
    ['Pool A', ['1 E1', '– E2', '2 E4']],
    ['Pool B', ['1 E0', '2 E5']],
    ['Withdrawn', ['– E3']],
  ]);
  // Unmarked (another system, or the knockouts): the field, as ranked.
  const field = { standings: [row(0, undefined, undefined), row(1, undefined, undefined)] };
  assert.deepEqual(groups(field).map((g) => [g.label, g.rows.map((r) => r.rank)]), [[null, [1, 2]]]);
});

test('a bye names its pool while the pools play, and only then', () => {
  const entrants = ['Anna', 'Bea', 'Cyril', 'Émile'];
  const pools = { entrants, standings: [{ entrant: 0, pool: 1 }, { entrant: 3, pool: 0 }, { entrant: 1 }] };
  assert.equal(namesInPools(pools, [3, 0]), 'Émile (Pool A), Anna (Pool B)');
  // No pool on the row (a knockout, another system, one withdrawn before the deal): the name.
  assert.equal(namesInPools(pools, [1, 2]), 'Bea, Cyril');
  assert.equal(namesInPools({ entrants }, [2]), 'Cyril');
});

test('a finished tournament names its champion, or says it has none (both finalists withdrew)', () => {
  const summary = { entrants: ['Anna', 'Bea'], champion: 1 };
  assert.equal(championText(summary), 'Champion: Bea');
  assert.equal(championText({ ...summary, champion: 0 }), 'Champion: Anna');
  assert.equal(championText({ ...summary, champion: null }), 'Finished, with no champion: no one was left to win the final');
});
