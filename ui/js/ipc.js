// The only module that talks to Rust. Every call resolves with the command's answer or
// rejects with {kind, detail, code} as the core defines them.

function invoke(cmd, args) {
  const tauri = window.__TAURI__;
  if (!tauri?.core?.invoke) {
    return Promise.reject({ kind: 'storage', detail: 'the app core is not available', code: 'no_core' });
  }
  return tauri.core.invoke(cmd, args).catch((e) => {
    if (e && typeof e === 'object' && e.kind) throw e;
    // Not the core's typed refusal (the shell refused the call itself): said as such, not as
    // a history that could not be saved. An argument of the wrong type (Tauri's "invalid args
    // `x` for command `y`") is a call refused before it ran: nothing was touched.
    const detail = String(e);
    throw { kind: detail.startsWith('invalid args') ? 'bad_action' : 'storage', detail, code: 'fault' };
  });
}

export const ipc = {
  appStatus: () => invoke('app_status'),
  home: () => invoke('home'),
  players: () => invoke('list_players'),
  addPlayer: (name) => invoke('add_player', { name }),
  newMatch: (game, rules, sides, computer = null) => invoke('new_match', { game, rules, sides, computer }),
  checkRules: (game, rules) => invoke('check_rules', { game, rules }),
  computerMove: (matchId) => invoke('computer_move', { matchId }),
  stopThinking: () => invoke('stop_thinking'),
  hint: (matchId) => invoke('hint', { matchId }),
  drawOffer: (matchId) => invoke('draw_offer', { matchId }),
  rollDice: (matchId, n) => invoke('roll_dice', { matchId, n }),
  choices: (matchId, action) => invoke('choices', { matchId, action }),
  importMoves: (text, rules, sides) => invoke('import_moves', { text, rules, sides }),
  getMatch: (matchId) => invoke('get_match', { matchId }),
  play: (matchId, action) => invoke('play', { matchId, action }),
  preview: (matchId, action) => invoke('preview', { matchId, action }),
  undo: (matchId) => invoke('undo', { matchId }),
  undoToPerson: (matchId) => invoke('undo_to_person', { matchId }),
  takeOver: (matchId) => invoke('take_over', { matchId }),
  rematch: (matchId) => invoke('rematch', { matchId }),
  discardMatch: (matchId) => invoke('discard_match', { matchId }),
  gameInfo: (game) => invoke('game_info', { game }),
  games: () => invoke('games'),
  painted: () => invoke('painted'),
  history: (filter) => invoke('history', { filter }),
  searchPlayers: (query, archived = false) => invoke('search_players', { query, archived }),
  renamePlayer: (player, name) => invoke('rename_player', { player, name }),
  // The spelling of a player a setup just made (`was`), put right: renamed, or the known player of that name.
  putRightPlayer: (player, was, name) => invoke('put_right_player', { player, was, name }),
  mergePlayers: (kept, gone) => invoke('merge_players', { kept, gone }),
  archivePlayer: (player, archived) => invoke('archive_player', { player, archived }),
  playerStats: (player, game) => invoke('player_stats', { player, game }),
  setNotes: (matchId, place, notes) => invoke('set_notes', { matchId, place, notes }),
  exportMatch: (matchId) => invoke('export_match', { matchId }),
  // `writer`: the matches new here are this device's to score (a discard taken back).
  importRecords: (text, writer = false) => invoke('import_records', { text, writer }),
  summaryAt: (matchId, n) => invoke('summary_at', { matchId, n }),
  playerSeries: (player, game) => invoke('player_series', { player, game }),
  leaderboard: (game) => invoke('leaderboard', { game }),
  headToHead: (a, b, game) => invoke('head_to_head', { a, b, game }),
  exportFile: (what) => invoke('export_file', { what }),
  listFiles: () => invoke('list_files'),
  importFile: (name) => invoke('import_file', { name }),
  backupFile: () => invoke('backup_file'),
  restoreFile: (name) => invoke('restore_file', { name }),
  tournamentInfo: () => invoke('tournament_info'),
  newTournament: (setup) => invoke('new_tournament', { setup }),
  getTournament: (tournamentId) => invoke('get_tournament', { tournamentId }),
  tournamentEvent: (tournamentId, event) => invoke('tournament_event', { tournamentId, event }),
  withdrawEntrant: (tournamentId, entrant) => invoke('withdraw_entrant', { tournamentId, entrant }),
  undoTournament: (tournamentId, revision) => invoke('undo_tournament', { tournamentId, revision }),
  startTable: (tournamentId, table) => invoke('start_table', { tournamentId, table }),
  tournaments: () => invoke('list_tournaments'),
  deleteTournament: (tournamentId) => invoke('delete_tournament', { tournamentId }),
  playerTournaments: (player) => invoke('player_tournaments', { player }),
  exportTournamentPdf: (tournamentId, which, lang) => invoke('export_tournament_pdf', { tournamentId, which, lang }),
  ratingLeaderboard: (game, from = null, to = null) => invoke('rating_leaderboard', { game, from, to }),
  playerRating: (player, game) => invoke('player_rating', { player, game }),
  ratingHistory: (player, game) => invoke('rating_history', { player, game }),
  expectedResult: (game, a, b) => invoke('expected_result', { game, a, b }),
  seedByRating: (game, entrants) => invoke('seed_by_rating', { game, entrants }),
  tournamentRatingChanges: (tournamentId) => invoke('tournament_rating_changes', { tournamentId }),
  clubStatus: () => invoke('club_status'),
  hostStart: () => invoke('host_start'),
  hostStop: () => invoke('host_stop'),
  clubJoin: (link, token) => invoke('club_join', { link, token }),
  clubLeave: () => invoke('club_leave'),
  clubSyncNow: () => invoke('club_sync_now'),
  // A camera frame goes as raw bytes (a Uint8Array), not as JSON.
  scanQr: (frame) => invoke('scan_qr', frame),
  settings: () => invoke('get_settings'),
  setSetting: (key, value) => invoke('set_setting', { key, value }),
};
