// The games this app offers, in the order the home screen shows them.
export const GAMES = ['molkky', 'molkkout', 'crokinole', 'morris', 'boulomania'];
