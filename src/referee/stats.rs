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

/// The figures of the pentanomial counts of a match (`[LL, LD, DD+WL, DW, WW]`, the pairs
/// of each score of the first engine), as OpenBench gives them: the mean pair score `μ` (points
/// per game) and its variance over the `N` pairs, the Elo difference `-400 log10(1/μ - 1)`,
/// the ends of its 95 % interval at `μ ± t σ / √N` (`t` the 97.5 % quantile of Student's t
/// distribution with `N - 1` degrees of freedom), and the margin, the larger distance from the
/// Elo difference to an end; the normalized Elo `(μ - ½) / √(2 var) · 800 / ln 10` (fishtest,
/// fastchess) and its margin from the same interval; the likelihood of superiority
/// `Φ((μ - ½) / (σ / √N))`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Pentanomial {
    /// `[LL, LD, DD+WL, DW, WW]`.
    pub counts: [u32; 5],
    pub pairs: u32,
    /// Points per game.
    pub score: Option<f64>,
    /// `None` with fewer than two pairs, or a score of 0 or 1 (infinite).
    pub elo: Option<f64>,
    pub elo_error: Option<f64>,
    /// `None` where the pair scores do not vary.
    pub nelo: Option<f64>,
    pub nelo_error: Option<f64>,
    pub los: Option<f64>,
}

/// The 97.5 % quantile of Student's t distribution with `df` degrees of freedom.
pub fn t_975(df: f64) -> f64 {
    use statrs::distribution::{ContinuousCDF, StudentsT};
    StudentsT::new(0.0, 1.0, df)
        .map(|t| t.inverse_cdf(0.975))
        .unwrap_or(Z_95)
}

/// The standard normal distribution function.
fn phi(x: f64) -> f64 {
    0.5 * (1.0 + libm::erf(x / std::f64::consts::SQRT_2))
}

/// The normalized Elo of a mean pair score `mu` whose pair scores have variance `var`.
fn nelo_of(mu: f64, var: f64) -> f64 {
    (mu - 0.5) / (2.0 * var).sqrt() * super::sprt::NELO_PER_T
}

impl Pentanomial {
    /// The figures of `counts`, the interval with quantile `q` of the mean (`None`: Student's
    /// t, as OpenBench).
    pub fn with_quantile(counts: [u32; 5], q: Option<f64>) -> Pentanomial {
        let pairs: u32 = counts.iter().sum();
        let n = f64::from(pairs);
        let mut out = Pentanomial {
            counts,
            pairs,
            score: None,
            elo: None,
            elo_error: None,
            nelo: None,
            nelo_error: None,
            los: None,
        };
        if pairs == 0 {
            return out;
        }
        let x = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mu: f64 = (0..5).map(|i| x[i] * f64::from(counts[i])).sum::<f64>() / n;
        let var: f64 = (0..5)
            .map(|i| (x[i] - mu).powi(2) * f64::from(counts[i]))
            .sum::<f64>()
            / n;
        out.score = Some(mu);
        let se = (var / n).sqrt();
        out.los = Some(if se > 0.0 {
            phi((mu - 0.5) / se)
        } else if mu > 0.5 {
            1.0
        } else if mu < 0.5 {
            0.0
        } else {
            0.5
        });
        if var > 0.0 {
            out.nelo = Some(nelo_of(mu, var));
        }
        if pairs < 2 {
            return out;
        }
        let q = q.unwrap_or_else(|| t_975(n - 1.0));
        let (low, high) = (mu - q * se, mu + q * se);
        out.elo = elo_of_score(mu);
        if let (Some(e), Some(l), Some(h)) = (out.elo, elo_of_score(low), elo_of_score(high)) {
            out.elo_error = Some((h - e).max(e - l));
        }
        if var > 0.0 {
            out.nelo_error = Some((nelo_of(high, var) - nelo_of(low, var)) / 2.0);
        }
        out
    }

    pub fn new(counts: [u32; 5]) -> Pentanomial {
        Pentanomial::with_quantile(counts, None)
    }

    /// `Elo   | 3.58 +- 2.77 (95%)` and `nElo  | ...`, as OpenBench writes the first.
    pub fn lines(&self) -> [String; 2] {
        let figure = |v: Option<f64>, e: Option<f64>| match (v, e) {
            (Some(v), Some(e)) => format!("{v:.2} +- {e:.2} (95%)"),
            (Some(v), None) => format!("{v:.2}"),
            (None, _) => match self.score {
                Some(s) if s >= 1.0 => "+inf".into(),
                Some(s) if s <= 0.0 => "-inf".into(),
                _ => "-".into(),
            },
        };
        [
            format!("Elo   | {}", figure(self.elo, self.elo_error)),
            format!("nElo  | {}", figure(self.nelo, self.nelo_error)),
        ]
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

    /// Published OpenBench runs: pentanomial counts, and the Elo and margin their page
    /// printed.
    const OPENBENCH: &[(&str, [u32; 5], f64, f64)] = &[
        // https://chess.aronpetkovski.com/test/2502/ (PlentyChess pull request 213)
        ("2502", [44, 241, 590, 413, 71], 28.96, 8.30),
        // https://chess.aronpetkovski.com/test/3021/ (PlentyChess pull request 229)
        ("3021", [24, 609, 1406, 767, 42], 11.84, 4.83),
        // https://chess.swehosting.se/test/10490/ (Viridithas pull request 256)
        ("10490", [94, 2177, 4428, 2303, 147], 4.41, 2.75),
        // https://chess.swehosting.se/test/10491/ (Viridithas pull request 256)
        ("10491", [51, 2943, 6761, 3160, 57], 3.07, 2.12),
        // https://github.com/rektdie/Eleanor/pull/83
        ("Eleanor 83", [527, 3223, 6164, 3385, 575], 3.23, 2.58),
        // A test H0 accepted, few pairs: https://paulsonkoly.pythonanywhere.com/test/34/
        // (quoted in https://github.com/paulsonkoly/chess-3/pull/39)
        ("chess-3 34", [78, 64, 64, 14, 4], -164.92, 30.04),
    ];

    #[test]
    fn pentanomial_elo_agrees_with_openbench() {
        for &(name, counts, elo, margin) in OPENBENCH {
            let p = Pentanomial::new(counts);
            let (e, m) = (p.elo.unwrap(), p.elo_error.unwrap());
            assert!(
                (e - elo).abs() <= 0.005 + 1e-9,
                "{name}: Elo {e:.4}, printed {elo}"
            );
            assert!(
                (m - margin).abs() <= 0.005 + 1e-9,
                "{name}: ± {m:.4}, printed {margin}"
            );
        }
    }

    #[test]
    fn the_normal_quantile_gives_the_older_openbench_figures() {
        // An OpenBench instance of a version before Student's t (its interval with the normal
        // quantile), few pairs: https://github.com/rektdie/Eleanor/pull/33 prints
        // 37.60 +- 12.54; Student's t would give 12.57.
        let p = Pentanomial::with_quantile([23, 147, 264, 222, 63], Some(Z_95));
        assert!((p.elo.unwrap() - 37.60).abs() <= 0.005, "{p:?}");
        assert!((p.elo_error.unwrap() - 12.54).abs() <= 0.005, "{p:?}");
        let t = Pentanomial::new([23, 147, 264, 222, 63]);
        assert!((t.elo_error.unwrap() - 12.57).abs() <= 0.005, "{t:?}");
    }

    #[test]
    fn normalized_elo_agrees_with_fishtest_and_fastchess() {
        // https://montytest.muzhen.org/tests/stats/69d3c8dc7c5b3724e29d2712 (fishtest's
        // statistics page): normalized Elo -63.97.
        let p = Pentanomial::new([13, 37, 50, 25, 3]);
        assert!((p.nelo.unwrap() + 63.97).abs() <= 0.005, "{p:?}");
        // fastchess (https://ijccrl.com/sprt-test-of-revolution-1-0-1-dev-vs-revolution-1-0):
        // Elo 5.53, nElo 10.17 +/- 27.17, LOS 76.85 %, with the normal quantile (its Elo margin,
        // 14.79, is half the interval; OpenBench's, used here, the larger side).
        let z = Pentanomial::with_quantile([3, 75, 149, 83, 4], Some(Z_95));
        assert!((z.elo.unwrap() - 5.53).abs() <= 0.005, "{z:?}");
        assert!((z.nelo.unwrap() - 10.17).abs() <= 0.005, "{z:?}");
        assert!((z.nelo_error.unwrap() - 27.17).abs() <= 0.005, "{z:?}");
        assert!((z.los.unwrap() - 0.7685).abs() <= 0.00005, "{z:?}");
    }

    #[test]
    fn degenerate_pentanomials_have_no_infinite_figures() {
        let none = Pentanomial::new([0; 5]);
        assert_eq!((none.elo, none.nelo, none.los), (None, None, None));
        let won = Pentanomial::new([0, 0, 0, 0, 12]);
        assert_eq!((won.elo, won.nelo, won.los), (None, None, Some(1.0)));
        assert_eq!(won.lines()[0], "Elo   | +inf");
        let drawn = Pentanomial::new([0, 0, 9, 0, 0]);
        assert_eq!(
            (drawn.elo, drawn.nelo, drawn.los),
            (Some(0.0), None, Some(0.5))
        );
        let one = Pentanomial::new([0, 0, 0, 1, 0]);
        assert_eq!((one.elo, one.elo_error), (None, None));
    }
}
