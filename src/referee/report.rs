//! The results of a match from the PDN files the referee wrote: the games read back (whole
//! ones only), the standings of the engines with Elo, margin and LOS, the crosstable, the
//! pentanomial counts of each pairing with their figures, and the SPRT state. `arbiter match`
//! gives its summary from them, `--resume` goes on from them, and `arbiter match report`
//! merges the files of shards.
//!
//! A game is whole when its text was read without an error, it ends with the result its
//! `Result` tag gives, its moves are as many as its `PlyCount` tag says, and it has the tags
//! the referee writes (`Round`, `White`, `Black`, `Termination`, `Verdict`). The referee writes
//! each game with one write and syncs it: a match killed mid-write leaves at most a torn last
//! game, which these tests find, and which is played again.

use std::collections::BTreeMap;

use arbiter_rules::notation::pdn::parse_pdn;
use serde::Serialize;

use super::sprt::{Sprt, SprtState};
use super::stats::{Pentanomial, Report, Tally};

/// How a game ended, from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    WhiteWins,
    BlackWins,
    Draw,
    Unknown,
}

impl Outcome {
    pub fn code(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "white_wins",
            Outcome::BlackWins => "black_wins",
            Outcome::Draw => "draw",
            Outcome::Unknown => "unknown",
        }
    }

    fn parse(s: &str) -> Option<Outcome> {
        Some(match s {
            "white_wins" => Outcome::WhiteWins,
            "black_wins" => Outcome::BlackWins,
            "draw" => Outcome::Draw,
            "unknown" => Outcome::Unknown,
            _ => return None,
        })
    }

    /// White's points: 1, ½, 0; `None` when unknown.
    fn white_points(self) -> Option<f64> {
        match self {
            Outcome::WhiteWins => Some(1.0),
            Outcome::Draw => Some(0.5),
            Outcome::BlackWins => Some(0.0),
            Outcome::Unknown => None,
        }
    }
}

/// A game as the results know it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Record {
    /// Its number in the schedule.
    pub number: usize,
    pub round: usize,
    pub white: String,
    pub black: String,
    pub outcome: Outcome,
    /// The reason code.
    pub termination: String,
    pub plies: usize,
    pub opening: String,
    /// The match it belongs to (`MatchId`).
    pub match_id: Option<String>,
}

/// The reason codes of forfeits and false claims: the losing side is at fault.
const FAULTS: [&str; 7] = [
    "ILLEGAL_MOVE",
    "TIME_FORFEIT",
    "DISCONNECT",
    "STALL",
    "CRASH",
    "PROTOCOL_ERROR",
    "REFUSED",
];

/// What a file holds.
#[derive(Debug)]
pub struct FileRead {
    pub records: Vec<Record>,
    /// The bytes of the text up to the end of its last whole game (and its line end).
    pub whole_len: usize,
    /// A torn game at the end of the text (a write cut by a kill), not counted.
    pub torn: bool,
}

/// Reads the games of a PDN text the referee wrote (`name` in errors). A game that is not
/// whole is allowed only at the end (a torn last write).
pub fn read_text(text: &str, name: &str) -> Result<FileRead, String> {
    let games = parse_pdn(text);
    let mut records = Vec::new();
    let mut whole_len = 0;
    let mut torn = false;
    let n = games.len();
    for (i, g) in games.into_iter().enumerate() {
        let tag = |t: &str| g.tags.iter().find(|(k, _)| k == t).map(|(_, v)| v.as_str());
        let whole = g.error.is_none()
            && g.terminator.is_some()
            && g.terminator.as_deref() == tag("Result")
            && tag("PlyCount").and_then(|p| p.parse().ok()) == Some(g.plies)
            && ["Round", "White", "Black", "Termination", "Verdict"]
                .iter()
                .all(|t| tag(t).is_some());
        if !whole {
            // Text after the last game (blank lines) is read as an empty game: no tags.
            if g.tags.is_empty() && g.plies == 0 && i + 1 == n {
                break;
            }
            if i + 1 == n {
                torn = true;
                break;
            }
            return Err(format!(
                "{name}:{}: a game that is not whole, or not written by arbiter match (it \
                 needs its Result at the end of its moves, PlyCount, Round, White, Black, \
                 Termination and Verdict)",
                g.line
            ));
        }
        let round = tag("Round").unwrap_or_default();
        let (r, number) = round
            .split_once('.')
            .and_then(|(r, n)| Some((r.parse().ok()?, n.parse().ok()?)))
            .ok_or_else(|| {
                format!(
                    "{name}:{}: Round \"{round}\" is not round.game, as arbiter match writes it",
                    g.line
                )
            })?;
        let verdict = tag("Verdict").unwrap_or_default();
        let outcome = Outcome::parse(verdict).ok_or_else(|| {
            format!(
                "{name}:{}: Verdict \"{verdict}\" (white_wins, black_wins, draw or unknown)",
                g.line
            )
        })?;
        records.push(Record {
            number,
            round: r,
            white: tag("White").unwrap_or_default().to_string(),
            black: tag("Black").unwrap_or_default().to_string(),
            outcome,
            termination: tag("Termination").unwrap_or_default().to_string(),
            plies: g.plies,
            opening: tag("Opening").unwrap_or_default().to_string(),
            match_id: tag("MatchId").map(String::from),
        });
        // The game's line ends belong to it.
        whole_len = g.span.end
            + text[g.span.end..]
                .bytes()
                .take_while(|b| matches!(b, b'\n' | b'\r'))
                .count();
    }
    Ok(FileRead {
        records,
        whole_len,
        torn,
    })
}

/// The games of several files, merged by number: a number twice is an error, and so are games
/// of different matches (`MatchId`).
pub fn merge(files: Vec<(String, FileRead)>) -> Result<(Vec<Record>, usize), String> {
    let mut by_number: BTreeMap<usize, (String, Record)> = BTreeMap::new();
    let mut torn = 0;
    let mut id: Option<(String, Option<String>)> = None;
    for (name, f) in files {
        torn += usize::from(f.torn);
        for r in f.records {
            match &id {
                None => id = Some((name.clone(), r.match_id.clone())),
                Some((first, m)) if *m != r.match_id => {
                    return Err(format!(
                        "{name} and {first} hold games of different matches (MatchId {} and \
                         {})",
                        r.match_id.as_deref().unwrap_or("none"),
                        m.as_deref().unwrap_or("none")
                    ))
                }
                _ => {}
            }
            if let Some((other, _)) = by_number.get(&r.number) {
                return Err(format!(
                    "game {} is in {other} and in {name}: a game played twice",
                    r.number
                ));
            }
            by_number.insert(r.number, (name.clone(), r));
        }
    }
    Ok((by_number.into_values().map(|(_, r)| r).collect(), torn))
}

/// One engine's line of the standings.
#[derive(Clone, Debug, Serialize)]
pub struct Standing {
    pub rank: usize,
    pub name: String,
    #[serde(flatten)]
    pub report: Report,
    /// Games won, drawn and lost with White, then with Black: `[[w, d, l], [w, d, l]]`.
    pub by_colour: [[u32; 3]; 2],
    /// Games this engine forfeited, by reason.
    pub forfeits: BTreeMap<String, usize>,
    /// Claims of its rejected as false (`FALSE_CLAIM`).
    pub false_claims: usize,
}

/// The pentanomial counts of a pairing, from its first engine's side.
#[derive(Clone, Debug, Serialize)]
pub struct PairingFigures {
    pub first: String,
    pub second: String,
    /// The first engine's games against the second.
    #[serde(flatten)]
    pub games: Report,
    pub pentanomial: Pentanomial,
    /// The `DD` and `WL` pairs of the middle count.
    pub dd: u32,
    pub wl: u32,
}

/// The figures of a set of games.
#[derive(Clone, Debug, Serialize)]
pub struct Results {
    pub games: usize,
    /// Games without a result (`*`).
    pub unfinished: usize,
    pub plies: usize,
    /// By rank: points, then the Elo difference.
    pub standings: Vec<Standing>,
    /// `crosstable[i][j]`: engine `i`'s wins, draws and losses against engine `j` (names in
    /// `engines` order).
    pub engines: Vec<String>,
    pub crosstable: Vec<Vec<Tally>>,
    pub pairings: Vec<PairingFigures>,
    /// How many games ended for each reason.
    pub reasons: BTreeMap<String, usize>,
    /// The SPRT of a match between two engines, for the first.
    pub sprt: Option<SprtState>,
}

/// The engines of the records, in the order of their first game (in schedule order, the
/// first pairing's White first: the order of `--engine`).
pub fn engine_order(records: &[Record]) -> Vec<String> {
    let mut sorted: Vec<&Record> = records.iter().collect();
    sorted.sort_by_key(|r| r.number);
    let mut names: Vec<String> = Vec::new();
    for r in sorted {
        for n in [&r.white, &r.black] {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    names
}

/// The figures of `records` (games of `names`, in that order) and, for a match between two,
/// the SPRT's state.
pub fn results(names: &[String], records: &[Record], sprt: Option<&Sprt>) -> Results {
    let k = names.len();
    let at = |n: &str| names.iter().position(|x| x == n);
    let mut cross = vec![vec![Tally::default(); k]; k];
    let mut colour = vec![[[0u32; 3]; 2]; k];
    let mut forfeits: Vec<BTreeMap<String, usize>> = vec![BTreeMap::new(); k];
    let mut false_claims = vec![0usize; k];
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let (mut unfinished, mut plies) = (0, 0);
    for r in records {
        plies += r.plies;
        *reasons.entry(r.termination.clone()).or_default() += 1;
        let (Some(w), Some(b)) = (at(&r.white), at(&r.black)) else {
            continue;
        };
        let Some(wp) = r.outcome.white_points() else {
            unfinished += 1;
            continue;
        };
        // 0 win, 1 draw, 2 loss, from White's side.
        let res = if wp == 1.0 {
            0
        } else if wp == 0.5 {
            1
        } else {
            2
        };
        let add = |t: &mut Tally, res: usize| match res {
            0 => t.wins += 1,
            1 => t.draws += 1,
            _ => t.losses += 1,
        };
        add(&mut cross[w][b], res);
        add(&mut cross[b][w], 2 - res);
        colour[w][0][res] += 1;
        colour[b][1][2 - res] += 1;
        let loser = match r.outcome {
            Outcome::WhiteWins => Some(b),
            Outcome::BlackWins => Some(w),
            _ => None,
        };
        if let Some(l) = loser {
            if FAULTS.contains(&r.termination.as_str()) {
                *forfeits[l].entry(r.termination.clone()).or_default() += 1;
            } else if r.termination == "FALSE_CLAIM" {
                false_claims[l] += 1;
            }
        }
    }
    let mut standings: Vec<Standing> = (0..k)
        .map(|i| {
            let mut t = Tally::default();
            for row in &cross[i] {
                t.wins += row.wins;
                t.draws += row.draws;
                t.losses += row.losses;
            }
            Standing {
                rank: 0,
                name: names[i].clone(),
                report: t.report(),
                by_colour: colour[i],
                forfeits: forfeits[i].clone(),
                false_claims: false_claims[i],
            }
        })
        .collect();
    if k > 2 {
        standings.sort_by(|a, b| {
            b.report
                .points
                .total_cmp(&a.report.points)
                .then(a.report.games.cmp(&b.report.games))
        });
    }
    for (i, s) in standings.iter_mut().enumerate() {
        s.rank = i + 1;
    }
    let pairings = pairing_figures(names, records, &cross);
    let sprt = match (sprt, pairings.as_slice()) {
        (Some(s), [p]) if k == 2 => Some(s.state(&p.pentanomial.counts)),
        _ => None,
    };
    Results {
        games: records.len(),
        unfinished,
        plies,
        standings,
        engines: names.to_vec(),
        crosstable: cross,
        pairings,
        reasons,
        sprt,
    }
}

/// The pentanomial counts of each pairing: the two games of each pair (numbers `2k - 1` and
/// `2k`, the same engines with colours swapped), both with a result.
fn pairing_figures(
    names: &[String],
    records: &[Record],
    cross: &[Vec<Tally>],
) -> Vec<PairingFigures> {
    let mut by_pair: BTreeMap<usize, Vec<&Record>> = BTreeMap::new();
    for r in records {
        by_pair.entry(r.number.div_ceil(2)).or_default().push(r);
    }
    // (first, second) -> counts, dd, wl
    let mut out: BTreeMap<(usize, usize), ([u32; 5], u32, u32)> = BTreeMap::new();
    let at = |n: &str| names.iter().position(|x| x == n);
    for games in by_pair.values() {
        let [g1, g2] = games.as_slice() else {
            continue;
        };
        let (g1, g2) = if g1.number < g2.number {
            (g1, g2)
        } else {
            (g2, g1)
        };
        if g1.white != g2.black || g1.black != g2.white {
            continue;
        }
        let (Some(a), Some(b)) = (at(&g1.white), at(&g1.black)) else {
            continue;
        };
        let (Some(p1), Some(p2)) = (g1.outcome.white_points(), g2.outcome.white_points()) else {
            continue;
        };
        // The first engine (White in the pair's first game): its points in both games.
        let points = p1 + (1.0 - p2);
        let bin = (points * 2.0).round() as usize;
        let e = out.entry((a, b)).or_insert(([0; 5], 0, 0));
        e.0[bin.min(4)] += 1;
        if bin == 2 {
            if p1 == 0.5 {
                e.1 += 1;
            } else {
                e.2 += 1;
            }
        }
    }
    let mut pairs: Vec<(usize, usize)> = out.keys().copied().collect();
    // Pairings with games but no whole pair still show their games.
    for (i, row) in cross.iter().enumerate() {
        for (j, t) in row.iter().enumerate() {
            if i < j && t.games() > 0 && !pairs.contains(&(i, j)) && !pairs.contains(&(j, i)) {
                pairs.push((i, j));
            }
        }
    }
    pairs.sort();
    pairs
        .into_iter()
        .map(|(a, b)| {
            let (counts, dd, wl) = out.get(&(a, b)).copied().unwrap_or(([0; 5], 0, 0));
            PairingFigures {
                first: names[a].clone(),
                second: names[b].clone(),
                games: cross[a][b].report(),
                pentanomial: Pentanomial::new(counts),
                dd,
                wl,
            }
        })
        .collect()
}

impl Results {
    /// The text of the results: the standings, the crosstable (more than two engines), and for
    /// each pairing its block as OpenBench writes it (Elo, nElo, LLR with `--sprt`, the games,
    /// the pentanomial counts).
    pub fn text(&self) -> Vec<String> {
        let mut lines = Vec::new();
        let width = self
            .engines
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(6)
            .max(6);
        lines.push(format!(
            "{:>4}  {:<width$}  {:>5}  {:>4}  {:>4}  {:>4}  {:>6}  {:>6}  {:>16}  {:>7}",
            "Rank", "Engine", "Games", "W", "D", "L", "Points", "Score", "Elo", "LOS"
        ));
        for s in &self.standings {
            let r = &s.report;
            let elo = match (r.elo, r.elo_error) {
                (Some(e), Some(m)) => format!("{e:+.1} ± {m:.1}"),
                (Some(e), None) => format!("{e:+.1}"),
                (None, _) if r.games > 0 => "±inf".into(),
                _ => "-".into(),
            };
            lines.push(format!(
                "{:>4}  {:<width$}  {:>5}  {:>4}  {:>4}  {:>4}  {:>6}  {:>6}  {:>16}  {:>7}",
                s.rank,
                s.name,
                r.games,
                r.wins,
                r.draws,
                r.losses,
                r.points,
                r.score
                    .map(|x| format!("{:.1} %", x * 100.0))
                    .unwrap_or_else(|| "-".into()),
                elo,
                r.los
                    .map(|x| format!("{:.1} %", x * 100.0))
                    .unwrap_or_else(|| "-".into()),
            ));
        }
        if self.engines.len() > 2 {
            lines.push(String::new());
            lines.push("Crosstable (the row's wins-draws-losses against the column):".into());
            let label = width + 1 + self.engines.len().to_string().len();
            let mut head = format!("{:<label$}", "");
            for (j, _) in self.engines.iter().enumerate() {
                head.push_str(&format!("  {:>11}", j + 1));
            }
            lines.push(head);
            for (i, n) in self.engines.iter().enumerate() {
                let mut row = format!("{:<label$}", format!("{} {n}", i + 1));
                for (j, t) in self.crosstable[i].iter().enumerate() {
                    let cell = if i == j {
                        "-".to_string()
                    } else {
                        format!("{}-{}-{}", t.wins, t.draws, t.losses)
                    };
                    row.push_str(&format!("  {cell:>11}"));
                }
                lines.push(row);
            }
        }
        for p in &self.pairings {
            lines.push(String::new());
            lines.push(format!("{} vs {}", p.first, p.second));
            lines.extend(p.pentanomial.lines());
            if let Some(s) = self.sprt.filter(|_| self.pairings.len() == 1) {
                lines.push(format!("LLR   | {} {}", s.line(), s.words()));
            }
            lines.push(format!(
                "Games | N: {} W: {} L: {} D: {}",
                p.games.games, p.games.wins, p.games.losses, p.games.draws
            ));
            let c = p.pentanomial.counts;
            lines.push(format!(
                "Penta | [{}, {}, {}, {}, {}]",
                c[0], c[1], c[2], c[3], c[4]
            ));
        }
        lines.push(String::new());
        let reasons: Vec<String> = self
            .reasons
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        lines.push(format!(
            "{} games ({} unfinished), {} plies; reasons: {}",
            self.games,
            self.unfinished,
            self.plies,
            if reasons.is_empty() {
                "none".into()
            } else {
                reasons.join(", ")
            }
        ));
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(number: usize, white: &str, black: &str, outcome: Outcome) -> Record {
        Record {
            number,
            round: 1,
            white: white.into(),
            black: black.into(),
            outcome,
            termination: "NO_LEGAL_MOVES".into(),
            plies: 10,
            opening: "o".into(),
            match_id: None,
        }
    }

    #[test]
    fn pairs_fill_the_pentanomial_bins() {
        use Outcome::*;
        let names = vec!["A".to_string(), "B".to_string()];
        let records = vec![
            // A wins both: WW.
            rec(1, "A", "B", WhiteWins),
            rec(2, "B", "A", BlackWins),
            // A wins with White, loses with Black: WL (middle bin).
            rec(3, "A", "B", WhiteWins),
            rec(4, "B", "A", WhiteWins),
            // Two draws: DD (middle bin).
            rec(5, "A", "B", Draw),
            rec(6, "B", "A", Draw),
            // A loses with White, draws with Black: LD.
            rec(7, "A", "B", BlackWins),
            rec(8, "B", "A", Draw),
            // A single game: no pair.
            rec(9, "A", "B", WhiteWins),
        ];
        let r = results(&names, &records, None);
        let p = &r.pairings[0];
        assert_eq!(p.pentanomial.counts, [0, 1, 2, 0, 1]);
        assert_eq!((p.dd, p.wl), (1, 1));
        assert_eq!((p.games.wins, p.games.draws, p.games.losses), (4, 3, 2));
        assert_eq!(r.standings[1].report.wins, 2);
    }

    #[test]
    fn merging_refuses_a_game_twice_and_other_matches() {
        let f = |rs: Vec<Record>| FileRead {
            records: rs,
            whole_len: 0,
            torn: false,
        };
        let a = rec(1, "A", "B", Outcome::Draw);
        let ok = merge(vec![
            ("x".into(), f(vec![a.clone()])),
            ("y".into(), f(vec![rec(2, "B", "A", Outcome::Draw)])),
        ]);
        assert_eq!(ok.unwrap().0.len(), 2);
        assert!(merge(vec![
            ("x".into(), f(vec![a.clone()])),
            ("y".into(), f(vec![a.clone()]))
        ])
        .unwrap_err()
        .contains("played twice"));
        let mut other = rec(2, "B", "A", Outcome::Draw);
        other.match_id = Some("m2".into());
        assert!(
            merge(vec![("x".into(), f(vec![a])), ("y".into(), f(vec![other]))])
                .unwrap_err()
                .contains("different matches")
        );
    }
}
