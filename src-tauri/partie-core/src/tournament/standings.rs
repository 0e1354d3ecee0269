//! Standings (`docs/tournaments.md`, "Standings"): every figure is a pure function of the results
//! so far, and the ranking applies the keys in order, head-to-head inside each group still tied.

use super::event::Outcome;
use super::Round;
use serde::Serialize;

/// A ranking key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    /// 2 a win, 1 a draw.
    MatchPoints,
    /// Own match scores (byes and won forfeits: the average).
    GamePoints,
    /// Own scores minus the opponents'.
    ScoreDiff,
    /// Crokinole's 20s.
    Twenties,
    /// The opponents' match points.
    Buchholz,
    /// Wins, byes and won forfeits included.
    Wins,
    /// Match points between the members of a tied group only.
    HeadToHead,
}

impl Key {
    const NAMES: &'static [(&'static str, Key)] = &[
        ("match_points", Key::MatchPoints),
        ("game_points", Key::GamePoints),
        ("score_diff", Key::ScoreDiff),
        ("twenties", Key::Twenties),
        ("buchholz", Key::Buchholz),
        ("wins", Key::Wins),
        ("head_to_head", Key::HeadToHead),
    ];

    /// Reads a key from its name.
    pub fn parse(name: &str) -> Option<Key> {
        Self::NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, k)| *k)
    }

    /// The key's name.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(_, k)| *k == self)
            .map(|(n, _)| *n)
            .expect("every key is named")
    }

    /// Every key's name, for the screens' choices.
    pub fn names() -> impl Iterator<Item = &'static str> {
        Self::NAMES.iter().map(|(n, _)| *n)
    }

    /// The first key a game's tournaments rank by (its [`crate::game::Game::RANKING`]'s first:
    /// game points for Crokinole, else match points).
    pub fn first_for(game: &str) -> Key {
        Self::ranking(game).next().unwrap_or(Key::MatchPoints)
    }

    /// The tie-breaks a game ranks by when the setup names none (the rest of its ranking).
    pub fn default_tiebreaks(game: &str) -> Vec<Key> {
        Self::ranking(game).skip(1).collect()
    }

    /// Whether a game's results carry this key's count (Crokinole's 20s).
    pub fn counted_in(self, game: &str) -> bool {
        Self::ranking(game).any(|k| k == self)
    }

    fn ranking(game: &str) -> impl Iterator<Item = Key> {
        crate::games::ranking(game)
            .iter()
            .filter_map(|n| Key::parse(n))
    }
}

/// One entrant's figures.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Figures {
    /// Matches played (byes and forfeits are not).
    pub played: u32,
    /// Wins, byes and won forfeits included.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses, forfeits included.
    pub losses: u32,
    /// Byes.
    pub byes: u32,
    /// 2 a win, 1 a draw.
    pub match_points: u32,
    /// Own scores, plus the average of them for each bye or won forfeit.
    pub game_points: u32,
    /// Own scores minus the opponents'.
    pub score_diff: i64,
    /// Crokinole's 20s.
    pub twenties: u32,
    /// The current match points of every opponent met.
    pub buchholz: u32,
    /// Whether the entrant withdrew.
    pub withdrawn: bool,
}

impl Figures {
    fn value(&self, key: Key) -> i64 {
        match key {
            Key::MatchPoints => self.match_points.into(),
            Key::GamePoints => self.game_points.into(),
            Key::ScoreDiff => self.score_diff,
            Key::Twenties => self.twenties.into(),
            Key::Buchholz => self.buchholz.into(),
            Key::Wins => self.wins.into(),
            Key::HeadToHead => 0,
        }
    }
}

/// A match both sides played: who met whom and who won (`None`: a draw).
#[derive(Debug, Clone, Copy)]
pub struct Meeting {
    /// The two entrants.
    pub sides: [usize; 2],
    /// The winning side (0 or 1), if any.
    pub winner: Option<usize>,
}

/// The figures of every entrant, and the meetings behind them.
#[derive(Debug, Clone)]
pub struct Table {
    /// Figures by entrant index.
    pub figures: Vec<Figures>,
    /// Every match played, in order.
    pub meetings: Vec<Meeting>,
}

impl Table {
    /// The figures after `rounds`, for `entrants` entrants of whom `withdrawn` withdrew.
    pub fn compute(entrants: usize, withdrawn: &[bool], rounds: &[Round]) -> Self {
        let mut f = vec![Figures::default(); entrants];
        let mut own = vec![0u32; entrants];
        let mut free_wins = vec![0u32; entrants];
        let mut meetings = Vec::new();
        for round in rounds {
            for bye in &round.byes {
                f[bye.entrant].byes += 1;
                free_wins[bye.entrant] += 1;
            }
            for &w in &round.walkovers {
                free_wins[w] += 1;
            }
            for m in &round.matches {
                match &m.result {
                    None => {}
                    Some(Outcome::Forfeit { forfeit }) => {
                        free_wins[m.sides[1 - forfeit]] += 1;
                        f[m.sides[*forfeit]].losses += 1;
                    }
                    Some(Outcome::Played {
                        winner,
                        scores,
                        twenties,
                        ..
                    }) => {
                        meetings.push(Meeting {
                            sides: m.sides,
                            winner: *winner,
                        });
                        for s in 0..2 {
                            let e = m.sides[s];
                            let fig = &mut f[e];
                            fig.played += 1;
                            // Scores typed by hand may be any u32: sums saturate rather
                            // than overflow (a panic, or standings wrapped round).
                            own[e] = own[e].saturating_add(scores[s]);
                            fig.score_diff += i64::from(scores[s]) - i64::from(scores[1 - s]);
                            fig.twenties =
                                fig.twenties.saturating_add(twenties.map_or(0, |t| t[s]));
                            match winner {
                                None => fig.draws += 1,
                                Some(w) if *w == s => fig.wins += 1,
                                Some(_) => fig.losses += 1,
                            }
                        }
                    }
                }
            }
        }
        for (e, fig) in f.iter_mut().enumerate() {
            fig.wins += free_wins[e];
            fig.match_points = 2 * fig.wins + fig.draws;
            let average = own[e].checked_div(fig.played).unwrap_or(0);
            fig.game_points = own[e].saturating_add(free_wins[e].saturating_mul(average));
            fig.withdrawn = withdrawn[e];
        }
        for m in &meetings {
            let points = [f[m.sides[0]].match_points, f[m.sides[1]].match_points];
            f[m.sides[0]].buchholz += points[1];
            f[m.sides[1]].buchholz += points[0];
        }
        Table {
            figures: f,
            meetings,
        }
    }

    /// Match points each member of `group` took from the others.
    fn head_to_head(&self, group: &[usize]) -> Vec<i64> {
        let pos = |e: usize| group.iter().position(|&g| g == e);
        let mut points = vec![0; group.len()];
        for m in &self.meetings {
            if let (Some(a), Some(b)) = (pos(m.sides[0]), pos(m.sides[1])) {
                match m.winner {
                    None => {
                        points[a] += 1;
                        points[b] += 1;
                    }
                    Some(0) => points[a] += 2,
                    Some(_) => points[b] += 2,
                }
            }
        }
        points
    }

    /// `entrants` ranked by `keys`, then seed order.
    pub fn rank(&self, entrants: &[usize], keys: &[Key]) -> Vec<usize> {
        let mut group = entrants.to_vec();
        group.sort_unstable();
        let mut out = Vec::with_capacity(group.len());
        self.rank_group(group, keys, &mut out);
        out
    }

    fn rank_group(&self, group: Vec<usize>, keys: &[Key], out: &mut Vec<usize>) {
        let Some((&key, rest)) = keys.split_first() else {
            out.extend(group);
            return;
        };
        if group.len() < 2 {
            out.extend(group);
            return;
        }
        let values: Vec<i64> = if key == Key::HeadToHead {
            self.head_to_head(&group)
        } else {
            group.iter().map(|&e| self.figures[e].value(key)).collect()
        };
        let mut order: Vec<(i64, usize)> = values.into_iter().zip(group).collect();
        // Stable: within equal values the seed order (the group's order) stays.
        order.sort_by_key(|x| std::cmp::Reverse(x.0));
        let mut i = 0;
        while i < order.len() {
            let j = i + order[i..].iter().take_while(|x| x.0 == order[i].0).count();
            self.rank_group(order[i..j].iter().map(|x| x.1).collect(), rest, out);
            i = j;
        }
    }
}
