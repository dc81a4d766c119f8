//! The schedule of a match or tournament: the pairings of the engines, and for each round, each
//! opening and each pairing a game pair (the opening twice, each engine White once). Games are
//! numbered from 1 in that order, a pair's two games one after the other (`2k - 1`, `2k`): the
//! pair of game `n` is `(n + 1) / 2`. A shard of `n` is every `n`-th pair.

use serde::Serialize;

/// How the engines meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tournament {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

impl Tournament {
    pub fn parse(s: &str) -> Result<Tournament, String> {
        match s {
            "round-robin" => Ok(Tournament::RoundRobin),
            "gauntlet" => Ok(Tournament::Gauntlet),
            _ => Err(format!("--tournament {s}: round-robin or gauntlet")),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Tournament::RoundRobin => "round-robin",
            Tournament::Gauntlet => "gauntlet",
        }
    }

    /// The pairings of `n` engines (indices), the first of each White in its pair's first
    /// game: round robin in the order (0,1), (0,2), …, (1,2), …; a gauntlet (0,1), (0,2), ….
    pub fn pairings(self, n: usize) -> Vec<(usize, usize)> {
        match self {
            Tournament::RoundRobin => (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect(),
            Tournament::Gauntlet => (1..n).map(|j| (0, j)).collect(),
        }
    }
}

/// One game of the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheduled {
    /// 1-based, in schedule order.
    pub number: usize,
    pub round: usize,
    /// Index into the openings.
    pub opening: usize,
    /// The engines (indices) playing White and Black.
    pub white: usize,
    pub black: usize,
}

impl Scheduled {
    /// The game pair it belongs to, 1-based.
    pub fn pair(&self) -> usize {
        self.number.div_ceil(2)
    }
}

/// The whole schedule: `rounds` rounds (more when `games` asks for more), each opening for each
/// pairing as a pair, cut after `games` games.
pub fn schedule(
    openings: usize,
    pairings: &[(usize, usize)],
    rounds: usize,
    games: Option<usize>,
) -> Vec<Scheduled> {
    let per_round = openings * pairings.len() * 2;
    let rounds = match games {
        Some(n) => rounds.max(n.div_ceil(per_round.max(1))),
        None => rounds,
    };
    let mut out = Vec::new();
    'rounds: for round in 1..=rounds {
        for opening in 0..openings {
            for &(a, b) in pairings {
                for (white, black) in [(a, b), (b, a)] {
                    if games.is_some_and(|n| out.len() >= n) {
                        break 'rounds;
                    }
                    out.push(Scheduled {
                        number: out.len() + 1,
                        round,
                        opening,
                        white,
                        black,
                    });
                }
            }
        }
    }
    out
}

/// A shard `i` of `n` (1-based): `i/n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || format!("--shard {s}: i/n, 1 <= i <= n");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) = (
            i.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || index > count || count > 100_000 {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The games of this shard: the pairs `k` with `(k - 1) mod n = i - 1`, both games of each.
    pub fn slice(&self, schedule: &[Scheduled]) -> Vec<Scheduled> {
        schedule
            .iter()
            .filter(|s| (s.pair() - 1) % self.count == self.index - 1)
            .copied()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings() {
        assert_eq!(
            Tournament::RoundRobin.pairings(4),
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        assert_eq!(Tournament::Gauntlet.pairings(4), [(0, 1), (0, 2), (0, 3)]);
        assert_eq!(Tournament::RoundRobin.pairings(2), [(0, 1)]);
    }

    #[test]
    fn pairs_are_consecutive_with_colours_swapped() {
        let s = schedule(2, &Tournament::RoundRobin.pairings(3), 1, None);
        assert_eq!(s.len(), 12);
        for p in s.chunks(2) {
            assert_eq!(p[0].pair(), p[1].pair());
            assert_eq!((p[0].white, p[0].black), (p[1].black, p[1].white));
            assert_eq!(p[0].opening, p[1].opening);
        }
        let cut = schedule(2, &[(0, 1)], 1, Some(7));
        assert_eq!(cut.len(), 7);
        assert_eq!(cut.last().unwrap().round, 2);
    }

    #[test]
    fn shards_slice_the_schedule_by_pairs() {
        let all = schedule(5, &[(0, 1)], 3, Some(29));
        for n in 1..=7 {
            let mut joined: Vec<Scheduled> = (1..=n)
                .flat_map(|i| Shard { index: i, count: n }.slice(&all))
                .collect();
            joined.sort_by_key(|s| s.number);
            assert_eq!(joined, all, "{n} shards");
            for i in 1..=n {
                let part = Shard { index: i, count: n }.slice(&all);
                for g in &part {
                    // A pair is never split between shards.
                    let mate = all
                        .iter()
                        .find(|o| o.pair() == g.pair() && o.number != g.number);
                    if let Some(m) = mate {
                        assert!(part.contains(m));
                    }
                }
            }
        }
        assert!(Shard::parse("0/3").is_err() && Shard::parse("4/3").is_err());
        assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 2, count: 3 }));
    }
}
