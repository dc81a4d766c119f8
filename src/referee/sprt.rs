//! The sequential probability ratio test of a match between two engines, as fishtest,
//! OpenBench and fastchess run it: over game pairs (one opening, each engine White once), in
//! the pentanomial model, with bounds in normalized Elo.
//!
//! A pair scores 0, ½, 1, 1½ or 2 points for the first engine: the pentanomial counts are the
//! pairs of each score, `[LL, LD, DD+WL, DW, WW]`. The test is Wald's with the generalized log
//! likelihood ratio of Michel Van den Bergh's notes on normalized Elo ("Comments on
//! normalized Elo", section 4.1), as fishtest's `LLR_normalized` computes it:
//!
//! - the pair scores are `a = 0, ¼, ½, ¾, 1`, the observed frequencies `p̂` (a count of 0
//!   counts 0.001, so that no frequency is 0);
//! - a bound of `nElo` normalized Elo is the t-value `t = nElo / (800 / ln 10) · √2` of the
//!   pair score, `(μ - ½) / σ`;
//! - for each bound, the distribution `p` closest to `p̂` (maximum likelihood) with that t-value
//!   is found by iteration from the uniform distribution: with `μ` and `σ` of the current `p`,
//!   `φᵢ = aᵢ - ½ - t σ (1 + ((μ - aᵢ) / σ)²) / 2`, the root `x` of `Σ p̂ᵢ φᵢ / (1 + x φᵢ) = 0`
//!   (Brent's method, between the poles), and `pᵢ = p̂ᵢ / (1 + x φᵢ)`; ten rounds at most;
//! - `LLR = N Σ p̂ᵢ (ln p₁ᵢ - ln p₀ᵢ)` over the `N` pairs (0 with none);
//! - the test stops when `LLR ≥ ln((1 - β) / α)` (H1, the first engine is at least `elo1`
//!   stronger, accepted) or `LLR ≤ ln(β / (1 - α))` (H0, at most `elo0`, accepted).

use serde::Serialize;

/// Normalized Elo per unit of t-value: 800 / ln 10.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// The pair scores of the pentanomial bins, in points per game.
const SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The largest bound accepted, in normalized Elo: beyond it the maximum likelihood
/// distribution of a bound need not exist.
pub const MAX_NELO: f64 = 150.0;

/// An SPRT: H0 `elo0`, H1 `elo1` (normalized Elo), with error rates `alpha` and `beta`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// Neither bound crossed.
    Continue,
    /// The lower bound crossed: H0 accepted.
    H0,
    /// The upper bound crossed: H1 accepted.
    H1,
}

/// The state of a test after some pairs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SprtState {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub decision: Decision,
}

impl SprtState {
    /// `2.95 (-2.94, 2.94) [0.00, 5.00]`, as OpenBench writes it.
    pub fn line(&self) -> String {
        format!(
            "{:.2} ({:.2}, {:.2}) [{:.2}, {:.2}]",
            self.llr, self.lower, self.upper, self.elo0, self.elo1
        )
    }

    /// What the decision says in words.
    pub fn words(&self) -> &'static str {
        match self.decision {
            Decision::Continue => "no bound crossed",
            Decision::H0 => "H0 accepted",
            Decision::H1 => "H1 accepted",
        }
    }
}

impl Sprt {
    /// Reads `elo0= elo1= [alpha=] [beta=]` (alpha and beta default to 0.05).
    pub fn parse(words: &[String]) -> Result<Sprt, String> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
        for w in words {
            let Some((k, v)) = w.split_once('=') else {
                return Err(format!(
                    "'{w}' is not key=value (elo0=, elo1=, alpha=, beta=)"
                ));
            };
            let x: f64 = v
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| format!("{k}={v}: a number"))?;
            match k {
                "elo0" => elo0 = Some(x),
                "elo1" => elo1 = Some(x),
                "alpha" => alpha = x,
                "beta" => beta = x,
                _ => return Err(format!("unknown key '{k}' (elo0=, elo1=, alpha=, beta=)")),
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err("elo0= and elo1= are needed".into());
        };
        let s = Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        };
        s.check()?;
        Ok(s)
    }

    fn check(&self) -> Result<(), String> {
        if self.elo0 >= self.elo1 {
            return Err("elo0 must be less than elo1".into());
        }
        if self.elo0.abs() > MAX_NELO || self.elo1.abs() > MAX_NELO {
            return Err(format!(
                "the bounds are normalized Elo between -{MAX_NELO} and {MAX_NELO}"
            ));
        }
        if !(self.alpha > 0.0 && self.alpha < 1.0 && self.beta > 0.0 && self.beta < 1.0) {
            return Err("alpha and beta are between 0 and 1".into());
        }
        if self.alpha + self.beta >= 1.0 {
            return Err("alpha + beta must be less than 1".into());
        }
        Ok(())
    }

    /// The bounds of the LLR: `ln(β / (1 - α))` and `ln((1 - β) / α)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The state of the test after the pairs of `penta`.
    pub fn state(&self, penta: &[u32; 5]) -> SprtState {
        let llr = llr_normalized(self.elo0, self.elo1, penta);
        let (lower, upper) = self.bounds();
        let decision = if llr >= upper {
            Decision::H1
        } else if llr <= lower {
            Decision::H0
        } else {
            Decision::Continue
        };
        SprtState {
            llr,
            lower,
            upper,
            elo0: self.elo0,
            elo1: self.elo1,
            alpha: self.alpha,
            beta: self.beta,
            decision,
        }
    }
}

/// The frequencies of the counts, a count of 0 taken as 0.001; and their total.
fn frequencies(counts: &[u32; 5]) -> (f64, [f64; 5]) {
    let c = counts.map(|n| if n == 0 { 1e-3 } else { f64::from(n) });
    let n: f64 = c.iter().sum();
    (n, c.map(|x| x / n))
}

fn mean_variance(p: &[f64; 5]) -> (f64, f64) {
    let mu: f64 = (0..5).map(|i| p[i] * SCORES[i]).sum();
    let var: f64 = (0..5).map(|i| p[i] * (SCORES[i] - mu).powi(2)).sum();
    (mu, var)
}

/// The root of `Σ p̂ᵢ φᵢ / (1 + x φᵢ) = 0` between its poles `-1 / max φ` and `-1 / min φ`
/// (the sum falls from +∞ to -∞ there); `None` when `φ` does not take both signs.
fn secular(phi: &[f64; 5], hat: &[f64; 5]) -> Option<f64> {
    let lo = phi.iter().cloned().fold(f64::INFINITY, f64::min);
    let hi = phi.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    if !(lo < 0.0 && hi > 0.0) {
        return None;
    }
    let eps = 1e-9;
    let (a, b) = (-1.0 / hi + eps, -1.0 / lo - eps);
    let f = |x: f64| {
        (0..5)
            .map(|i| hat[i] * phi[i] / (1.0 + x * phi[i]))
            .sum::<f64>()
    };
    let mut convergency = roots::SimpleConvergency {
        eps: 1e-15,
        max_iter: 200,
    };
    roots::find_root_brent(a, b, f, &mut convergency).ok()
}

/// The maximum likelihood distribution on the pair scores, given the observed `hat`, whose
/// t-value `(μ - reference) / σ` is `t`.
fn mle_t_value(hat: &[f64; 5], reference: f64, t: f64) -> Option<[f64; 5]> {
    let mut p = [0.2; 5];
    for _ in 0..10 {
        let (mu, var) = mean_variance(&p);
        let sigma = var.sqrt();
        if sigma.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        let phi: [f64; 5] = std::array::from_fn(|i| {
            let z = (mu - SCORES[i]) / sigma;
            SCORES[i] - reference - t * sigma * (1.0 + z * z) / 2.0
        });
        let x = secular(&phi, hat)?;
        let next: [f64; 5] = std::array::from_fn(|i| hat[i] / (1.0 + x * phi[i]));
        let change = (0..5).map(|i| (next[i] - p[i]).abs()).fold(0.0, f64::max);
        p = next;
        if change < 1e-9 {
            break;
        }
    }
    Some(p)
}

/// The generalized log likelihood ratio of H1 (`nelo1`) against H0 (`nelo0`) after the pairs
/// of `counts` (`[LL, LD, DD+WL, DW, WW]`): 0 with no pair.
pub fn llr_normalized(nelo0: f64, nelo1: f64, counts: &[u32; 5]) -> f64 {
    if counts.iter().all(|&n| n == 0) {
        return 0.0;
    }
    let (n, hat) = frequencies(counts);
    let t = |nelo: f64| nelo / NELO_PER_T * std::f64::consts::SQRT_2;
    let (Some(p0), Some(p1)) = (
        mle_t_value(&hat, 0.5, t(nelo0)),
        mle_t_value(&hat, 0.5, t(nelo1)),
    ) else {
        return 0.0;
    };
    n * (0..5)
        .map(|i| hat[i] * (p1[i].ln() - p0[i].ln()))
        .sum::<f64>()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Published runs: the pentanomial counts, the normalized Elo bounds and the LLR their page
    /// printed (two decimals).
    const PUBLISHED: &[(&str, [u32; 5], f64, f64, f64)] = &[
        // Stockfish, "Huge VVLTC tune tweak", fishtest:
        // https://tests.stockfishchess.org/tests/view/680e255e3629b02d74b15d5e
        // (quoted in https://github.com/official-stockfish/Stockfish/pull/6036)
        (
            "fishtest 680e255e",
            [1, 1098, 3954, 1346, 1],
            0.5,
            2.5,
            2.94,
        ),
        // https://tests.stockfishchess.org/tests/view/680e4dfb3629b02d74b15da6
        (
            "fishtest 680e4dfb",
            [0, 1236, 4490, 1474, 1],
            0.0,
            2.0,
            2.94,
        ),
        // https://tests.stockfishchess.org/tests/view/680e74223629b02d74b15def
        (
            "fishtest 680e7422",
            [4, 2290, 7932, 2562, 4],
            0.5,
            2.5,
            2.95,
        ),
        // PlentyChess, OpenBench: https://chess.aronpetkovski.com/test/2502/
        // (quoted in https://github.com/Yoshie2000/PlentyChess/pull/213)
        ("OpenBench 2502", [44, 241, 590, 413, 71], 0.0, 3.0, 2.91),
        // Viridithas, OpenBench: https://chess.swehosting.se/test/10490/
        // (quoted in https://github.com/cosmobobak/viridithas/pull/256)
        (
            "OpenBench 10490",
            [94, 2177, 4428, 2303, 147],
            0.0,
            3.0,
            2.99,
        ),
        // Eleanor, OpenBench (https://github.com/rektdie/Eleanor/pull/83)
        (
            "OpenBench Eleanor 83",
            [527, 3223, 6164, 3385, 575],
            0.0,
            5.0,
            3.02,
        ),
        // A Monty test on its fishtest instance, a run still going, with a negative LLR:
        // https://montytest.muzhen.org/tests/stats/69d3c8dc7c5b3724e29d2712 prints -0.5491.
        ("montytest 69d3c8dc", [13, 37, 50, 25, 3], 0.0, 4.0, -0.5491),
        // A test H0 accepted: https://paulsonkoly.pythonanywhere.com/test/34/
        // (quoted in https://github.com/paulsonkoly/chess-3/pull/39)
        ("OpenBench chess-3 34", [78, 64, 64, 14, 4], 0.0, 5.0, -2.95),
        // fastchess (https://ijccrl.com/sprt-test-of-revolution-1-0-1-dev-vs-revolution-1-0)
        ("fastchess Revolution", [3, 75, 149, 83, 4], 0.0, 2.0, 0.10),
    ];

    #[test]
    fn llr_agrees_with_published_runs() {
        for &(name, counts, elo0, elo1, printed) in PUBLISHED {
            let llr = llr_normalized(elo0, elo1, &counts);
            // The printed figure is rounded to its last decimal.
            let decimals = if name.starts_with("montytest") { 4 } else { 2 };
            let half = 0.5 * 10f64.powi(-decimals) + 1e-9;
            assert!(
                (llr - printed).abs() <= half,
                "{name}: LLR {llr:.5}, printed {printed}"
            );
        }
    }

    #[test]
    fn bounds_are_walds() {
        let s = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = s.bounds();
        // OpenBench and fishtest print (-2.94, 2.94) for alpha = beta = 0.05, and
        // (-2.25, 2.89) for alpha = 0.05, beta = 0.1.
        assert_eq!(format!("{lo:.2} {hi:.2}"), "-2.94 2.94");
        let s = Sprt { beta: 0.1, ..s };
        let (lo, hi) = s.bounds();
        assert_eq!(format!("{lo:.2} {hi:.2}"), "-2.25 2.89");
    }

    #[test]
    fn degenerate_data_decides_without_dividing_by_zero() {
        let s = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert_eq!(s.state(&[0; 5]).llr, 0.0);
        assert_eq!(s.state(&[0; 5]).decision, Decision::Continue);
        // Every pair won.
        let won = s.state(&[0, 0, 0, 0, 40]);
        assert!(won.llr.is_finite() && won.llr > 0.0, "{won:?}");
        assert_eq!(s.state(&[0, 0, 0, 0, 400]).decision, Decision::H1);
        // Every pair lost.
        let lost = s.state(&[400, 0, 0, 0, 0]);
        assert!(lost.llr.is_finite());
        assert_eq!(lost.decision, Decision::H0);
        // Every pair drawn: the pair scores hardly vary, so the normalized model learns little
        // from them; the figures stay finite.
        let drawn = s.state(&[0, 0, 4000, 0, 0]);
        assert!(drawn.llr.is_finite(), "{drawn:?}");
        // The widest bounds accepted, on lopsided data.
        for counts in [
            [0, 0, 0, 0, 7],
            [9, 0, 0, 0, 0],
            [1, 0, 0, 0, 1],
            [0, 3, 0, 0, 0],
        ] {
            for (e0, e1) in [(-MAX_NELO, MAX_NELO), (0.0, MAX_NELO), (-MAX_NELO, 0.0)] {
                let l = llr_normalized(e0, e1, &counts);
                assert!(l.is_finite(), "{counts:?} [{e0}, {e1}]: {l}");
            }
        }
    }

    #[test]
    fn sprt_words_are_read() {
        let w = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let s = Sprt::parse(&w("elo0=0 elo1=5")).unwrap();
        assert_eq!((s.alpha, s.beta), (0.05, 0.05));
        let s = Sprt::parse(&w("elo0=-1 elo1=3 alpha=0.1 beta=0.2")).unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-1.0, 3.0, 0.1, 0.2));
        for bad in [
            "elo0=5 elo1=0",
            "elo1=3",
            "elo0=0 elo1=3 alpha=0",
            "elo0=0 elo1=3 alpha=0.6 beta=0.5",
            "elo0=0 elo1=500",
            "elo0=0 elo1=x",
            "elo0=0 elo1=3 gamma=1",
            "elo0",
        ] {
            assert!(Sprt::parse(&w(bad)).is_err(), "{bad}");
        }
    }
}
