//! The match statistics of one player against the other, as chess match runners give them
//! (cutechess-cli, fastchess): the score, the Elo difference the score implies under the
//! logistic model, its 95 % error margin from the games' variance, and the likelihood of
//! superiority (LOS), the probability that the player is the stronger one given its wins and
//! losses (draws carry no information about it).
//!
//! - Elo difference of a score fraction `s`: `-400 log10(1/s - 1)`.
//! - Its margin: the score's standard error `sd = sqrt(sum over results of (x - s)^2 / n) /
//!   sqrt(n)`, with `x` 1, ½ or 0, and half the span of the Elo differences at `s ± 1.96 sd`.
//! - LOS: `(1 + erf((w - l) / sqrt(2 (w + l)))) / 2`.

use serde::Serialize;

/// The 97.5 % quantile of the standard normal distribution: a 95 % two-sided interval.
const Z_95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of one player, with the statistics they give.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// What a tally says ([`Tally::report`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Report {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Points: a win 1, a draw ½.
    pub points: f64,
    /// Points per game.
    pub score: Option<f64>,
    /// The Elo difference the score implies; `None` with no game, or a score of 0 or 1
    /// (infinite).
    pub elo: Option<f64>,
    /// The 95 % error margin of `elo`; `None` where `elo` is, or when an end of the interval
    /// is infinite.
    pub elo_error: Option<f64>,
    /// The likelihood of superiority; `None` with no win nor loss.
    pub los: Option<f64>,
}

/// The Elo difference of a score fraction.
pub fn elo_of_score(s: f64) -> Option<f64> {
    if !(s > 0.0 && s < 1.0) {
        return None;
    }
    let elo = -400.0 * (1.0 / s - 1.0).log10();
    // An even score gives -0.0, which JSON would print as `-0.0`.
    Some(if elo == 0.0 { 0.0 } else { elo })
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The same games seen by the opponent.
    pub fn mirrored(&self) -> Tally {
        Tally {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / f64::from(n))
    }

    /// The Elo difference and its 95 % margin.
    pub fn elo(&self) -> Option<(f64, Option<f64>)> {
        let s = self.score()?;
        let elo = elo_of_score(s)?;
        let n = f64::from(self.games());
        let (w, d, l) = (
            f64::from(self.wins) / n,
            f64::from(self.draws) / n,
            f64::from(self.losses) / n,
        );
        let variance = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2);
        let sd = variance.sqrt() / n.sqrt();
        let margin = match (elo_of_score(s - Z_95 * sd), elo_of_score(s + Z_95 * sd)) {
            (Some(low), Some(high)) => Some((high - low) / 2.0),
            _ => None,
        };
        Some((elo, margin))
    }

    /// The likelihood of superiority.
    pub fn los(&self) -> Option<f64> {
        let (w, l) = (f64::from(self.wins), f64::from(self.losses));
        if w + l == 0.0 {
            return None;
        }
        Some(0.5 * (1.0 + libm::erf((w - l) / (2.0 * (w + l)).sqrt())))
    }

    pub fn report(&self) -> Report {
        let elo = self.elo();
        Report {
            games: self.games(),
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
            points: self.points(),
            score: self.score(),
            elo: elo.map(|e| e.0),
            elo_error: elo.and_then(|e| e.1),
            los: self.los(),
        }
    }
}

impl Report {
    /// `+12 =6 -2, 15/20 (75.0 %), Elo +190.8 ± 120.5, LOS 99.9 %`.
    pub fn line(&self) -> String {
        let mut s = format!(
            "+{} ={} -{}, {}/{}",
            self.wins, self.draws, self.losses, self.points, self.games
        );
        if let Some(score) = self.score {
            s.push_str(&format!(" ({:.1} %)", score * 100.0));
        }
        match (self.elo, self.elo_error) {
            (Some(e), Some(m)) => s.push_str(&format!(", Elo {e:+.1} ± {m:.1}")),
            (Some(e), None) => s.push_str(&format!(", Elo {e:+.1}")),
            (None, _) if self.games > 0 => s.push_str(", Elo ±inf"),
            _ => {}
        }
        if let Some(los) = self.los {
            s.push_str(&format!(", LOS {:.1} %", los * 100.0));
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference figures from a second implementation of the same formulas, written apart in
    /// Python (`math.erf`, `math.log10`, `statistics.NormalDist().inv_cdf(0.975)`): wins,
    /// draws, losses, Elo, its 95 % margin, LOS.
    const REFERENCE: [(u32, u32, u32, f64, f64, f64); 5] = [
        (
            12,
            6,
            2,
            190.848501887865,
            151.68216312962295,
            0.9962368424167711,
        ),
        (30, 40, 30, 0.0, 53.157979780053196, 0.5),
        (
            5,
            10,
            3,
            38.76400520322261,
            110.5483775606805,
            0.7602499389065233,
        ),
        (1, 18, 1, 0.0, 48.463117892855934, 0.5),
        (
            51,
            0,
            49,
            6.949638427769096,
            69.00405109330819,
            0.579259709439103,
        ),
    ];

    #[test]
    fn figures_agree_with_a_second_implementation() {
        for (wins, draws, losses, elo, margin, los) in REFERENCE {
            let r = Tally {
                wins,
                draws,
                losses,
            }
            .report();
            let close = |a: f64, b: f64| (a - b).abs() < 1e-9 * (1.0 + b.abs());
            assert!(close(r.elo.unwrap(), elo), "{wins}/{draws}/{losses}: {r:?}");
            assert!(close(r.elo_error.unwrap(), margin), "{r:?}");
            assert!(close(r.los.unwrap(), los), "{r:?}");
        }
    }

    #[test]
    fn a_score_of_three_quarters_is_400_log10_3() {
        // The logistic model: 3 points out of 4 is 400 log10(3) Elo.
        let e = elo_of_score(0.75).unwrap();
        assert!((e - 400.0 * 3f64.log10()).abs() < 1e-12);
    }

    #[test]
    fn degenerate_tallies_have_no_figures() {
        let none = Tally::default().report();
        assert_eq!((none.elo, none.los, none.score), (None, None, None));
        let all_won = Tally {
            wins: 3,
            draws: 0,
            losses: 0,
        }
        .report();
        assert_eq!(all_won.elo, None);
        // (1 + erf(3 / sqrt(6))) / 2 = 0.958...
        assert!((all_won.los.unwrap() - 0.958).abs() < 0.001);
        let draws = Tally {
            wins: 0,
            draws: 4,
            losses: 0,
        }
        .report();
        assert_eq!(draws.los, None);
        assert_eq!(draws.elo.map(f64::is_sign_positive), Some(true));
        assert_eq!(draws.elo, Some(0.0));
    }
}
