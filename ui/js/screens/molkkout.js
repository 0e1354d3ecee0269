// The mölkkout on its own: Mölkky's scorepad (molkky.js draws both), two sides (a player or a
// team each: a team's players share its throws), no options.

import { register } from '../games.js';
import { mount, describe, chart } from './molkky.js';

register('molkkout', { mount, edge: 'turn', rules: false, describe, chart });
