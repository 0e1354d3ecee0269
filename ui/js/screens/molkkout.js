// The mölkkout on its own: Mölkky's scorepad (molkky.js draws both), two sides, no options and
// no teams.

import { register } from '../games.js';
import { mount, describe, chart } from './molkky.js';

register('molkkout', { mount, edge: 'turn', rules: false, teams: false, describe, chart });
