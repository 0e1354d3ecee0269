// The known players a typed name narrows to: without case or accents, those it starts first.
import { test } from 'node:test';
import assert from 'node:assert/strict';

globalThis.navigator = { language: 'en' };
globalThis.document = { documentElement: {} };
const { knownMatching } = await import('../../ui/js/dom.js');

const known = ['Zoé', 'Élodie', 'Anna', 'Joanna', 'Chloë', 'Иван'].map((name, id) => ({ id, name }));
const names = (typed) => knownMatching(known, typed).map((p) => p.name);

test('a typed name narrows the known players, without case or accents', () => {
  assert.deepEqual(names(''), known.map((p) => p.name));
  assert.deepEqual(names('   '), known.map((p) => p.name));
  assert.deepEqual(names('zoe'), ['Zoé']);
  assert.deepEqual(names('ELO'), ['Élodie']);
  assert.deepEqual(names('chloe'), ['Chloë']);
  assert.deepEqual(names('ив'), ['Иван']);
  // Those the text starts first, then those that hold it.
  assert.deepEqual(names('an'), ['Anna', 'Joanna']);
  assert.deepEqual(names('anna'), ['Anna', 'Joanna']);
  assert.deepEqual(names('jo'), ['Joanna']);
  assert.deepEqual(names('nobody'), []);
});
