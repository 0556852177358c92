//! Match statistics: wins, draws and losses, the Elo difference with its 95% interval, and
//! the sequential probability ratio test (SPRT).
//!
//! Everything is seen from the first player's side. A game scores `x = 1` (win), `1/2`
//! (draw) or `0` (loss); with `W`, `D`, `L` games of each kind and `N = W + D + L`:
//!
//! * **Score**: `s = (W + D/2) / N`.
//! * **Elo difference** (logistic model): `elo(s) = -400 log10(1/s - 1)`; `s = 1/2` is `0`,
//!   `s = 0.7` is `+147.2`, `s = 0.6` is `+70.4`.
//! * **95% interval** (trinomial results, normal approximation of the mean): the variance of
//!   one game's score is `σ² = (W (1-s)² + D (1/2-s)² + L s²) / N`, the standard error of
//!   `s` is `σ / √N`, and the interval is `elo(s - 1.96 σ/√N) .. elo(s + 1.96 σ/√N)`
//!   (an end at or beyond a score of 0 or 1 is infinite).
//!   For 60 wins, 20 draws and 20 losses: `s = 0.7`, `σ = 0.4`, standard error `0.04`, so
//!   `+147.2` with interval `+86.2 .. +218.3`.
//! * **SPRT** (`elo0, elo1, α, β`): H0 is "the difference is `elo0`", H1 "it is `elo1`". With
//!   the expected scores `s0 = 1 / (1 + 10^(-elo0/400))` and `s1` likewise, the
//!   log-likelihood ratio in the usual normal (GSPRT) approximation, with the variance
//!   estimated from the games, is
//!   `LLR = N (s1 - s0) (2s - s0 - s1) / (2σ²)`.
//!   The test goes on while `ln(β/(1-α)) < LLR < ln((1-β)/α)`; at or below the lower bound
//!   it accepts H0, at or above the upper bound H1. While every game has had the same
//!   result (`σ² = 0`) the LLR is taken as 0: no decision yet.

use std::fmt;

/// The two-sided 95% quantile of the normal distribution.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// One game's result for the first player.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameScore {
    /// The first player won.
    Win,
    /// The game was drawn.
    Draw,
    /// The first player lost.
    Loss,
}

impl GameScore {
    /// The points: 1, 1/2 or 0.
    pub fn points(self) -> f64 {
        match self {
            GameScore::Win => 1.0,
            GameScore::Draw => 0.5,
            GameScore::Loss => 0.0,
        }
    }
}

/// Wins, draws and losses of the first player.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Tally {
    /// Games the first player won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the first player lost.
    pub losses: u32,
}

impl Tally {
    /// A tally of `wins`, `draws` and `losses`.
    pub fn new(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    /// Counts one more game.
    pub fn add(&mut self, score: GameScore) {
        match score {
            GameScore::Win => self.wins += 1,
            GameScore::Draw => self.draws += 1,
            GameScore::Loss => self.losses += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first player's points: a win 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The mean score per game `s`, or `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| self.points() / f64::from(games))
    }

    /// The variance of one game's score, `σ²` (see the module notes), or `None` before the
    /// first game.
    pub fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let n = f64::from(self.games());
        let w = f64::from(self.wins) * (1.0 - s).powi(2);
        let d = f64::from(self.draws) * (0.5 - s).powi(2);
        let l = f64::from(self.losses) * s.powi(2);
        Some((w + d + l) / n)
    }

    /// The Elo difference and its 95% interval, or `None` before the first game.
    pub fn elo(&self) -> Option<EloEstimate> {
        let score = self.score()?;
        let stderr = (self.variance()? / f64::from(self.games())).sqrt();
        Some(EloEstimate {
            score,
            stderr,
            elo: elo_from_score(score),
            low: elo_from_score(score - Z_95 * stderr),
            high: elo_from_score(score + Z_95 * stderr),
        })
    }
}

impl fmt::Display for Tally {
    /// `+60 =20 -20`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "+{} ={} -{}", self.wins, self.draws, self.losses)
    }
}

/// The Elo difference of a mean score `s`: `-400 log10(1/s - 1)`; infinite at 0 and 1.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of an Elo difference: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95% interval.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct EloEstimate {
    /// The mean score per game.
    pub score: f64,
    /// The standard error of the mean score.
    pub stderr: f64,
    /// The Elo difference.
    pub elo: f64,
    /// The low end of the 95% interval.
    pub low: f64,
    /// The high end of the 95% interval.
    pub high: f64,
}

impl EloEstimate {
    /// Half the width of the interval, as `±` is usually printed (the interval is not quite
    /// symmetric; this is the mean of both sides).
    pub fn margin(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// Writes an Elo value with its sign, `+147.2`, `-3.0`, `+inf`.
pub fn format_elo(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // Rounded first, so that a tiny negative value is not written `-0.0`.
        let rounded = (elo * 10.0).round() / 10.0 + 0.0;
        format!("{rounded:+.1}")
    }
}

impl fmt::Display for EloEstimate {
    /// `+147.2 (95%: +86.2 .. +218.3)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (95%: {} .. {})",
            format_elo(self.elo),
            format_elo(self.low),
            format_elo(self.high)
        )
    }
}

/// The settings of a sequential probability ratio test (see the module notes).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Sprt {
    /// The Elo difference of the null hypothesis H0.
    pub elo0: f64,
    /// The Elo difference of the alternative H1.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the test says so far.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SprtDecision {
    /// Neither bound reached: go on.
    Continue,
    /// The lower bound was reached: H0 (`elo0`) accepted.
    AcceptH0,
    /// The upper bound was reached: H1 (`elo1`) accepted.
    AcceptH1,
}

impl fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtDecision::Continue => "no decision",
            SprtDecision::AcceptH0 => "H0 accepted",
            SprtDecision::AcceptH1 => "H1 accepted",
        })
    }
}

impl Sprt {
    /// A test, if `elo0 < elo1` and both error rates are strictly between 0 and 1.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        let finite = [elo0, elo1, alpha, beta].iter().all(|x| x.is_finite());
        if !finite {
            return Err("SPRT values must be finite numbers".into());
        }
        if elo0 >= elo1 {
            return Err(format!("SPRT needs elo0 < elo1, got {elo0} and {elo1}"));
        }
        for (name, value) in [("alpha", alpha), ("beta", beta)] {
            if !(value > 0.0 && value < 1.0) {
                return Err(format!("SPRT {name} must be between 0 and 1, got {value}"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Reads `elo0,elo1,alpha,beta`, e.g. `0,10,0.05,0.05`.
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let values: Vec<&str> = text.split(',').map(str::trim).collect();
        let [elo0, elo1, alpha, beta] = values.as_slice() else {
            return Err(format!(
                "SPRT `{text}`: expected four numbers elo0,elo1,alpha,beta"
            ));
        };
        let number = |word: &str| {
            word.parse::<f64>()
                .map_err(|_| format!("SPRT `{text}`: `{word}` is not a number"))
        };
        Sprt::new(number(elo0)?, number(elo1)?, number(alpha)?, number(beta)?)
    }

    /// The lower and upper bounds of the LLR: `ln(β/(1-α))` and `ln((1-β)/α)`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the games of `tally` (see the module notes).
    pub fn llr(&self, tally: &Tally) -> f64 {
        let (Some(s), Some(variance)) = (tally.score(), tally.variance()) else {
            return 0.0;
        };
        if variance <= 0.0 {
            return 0.0;
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        f64::from(tally.games()) * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * variance)
    }

    /// What the test says after the games of `tally`.
    pub fn decision(&self, tally: &Tally) -> SprtDecision {
        let llr = self.llr(tally);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

impl fmt::Display for Sprt {
    /// `elo0=0 elo1=10 alpha=0.05 beta=0.05`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_of_known_results() {
        let estimate = Tally::new(60, 20, 20).elo().expect("games");
        assert!(close(estimate.score, 0.7, 1e-12));
        assert!(close(estimate.stderr, 0.04, 1e-12));
        assert!(close(estimate.elo, 147.19, 0.01), "{estimate}");
        assert!(close(estimate.low, 86.23, 0.05), "{estimate}");
        assert!(close(estimate.high, 218.25, 0.05), "{estimate}");
        assert_eq!(estimate.to_string(), "+147.2 (95%: +86.2 .. +218.3)");

        // A score of 60%: about +70 Elo.
        let estimate = Tally::new(40, 40, 20).elo().expect("games");
        assert!(close(estimate.elo, 70.44, 0.01), "{estimate}");
        assert!(estimate.low > 0.0 && estimate.low < 70.0);
        assert!(estimate.high > 70.0 && estimate.high < 150.0);

        // Even, and symmetric.
        let even = Tally::new(30, 40, 30).elo().expect("games");
        assert!(close(even.elo, 0.0, 1e-9));
        assert!(close(even.low, -even.high, 1e-9));
        let mirrored = Tally::new(20, 20, 60).elo().expect("games");
        assert!(close(mirrored.elo, -147.19, 0.01));

        // All won: infinite.
        let all = Tally::new(5, 0, 0).elo().expect("games");
        assert_eq!(all.elo, f64::INFINITY);
        assert_eq!(format_elo(all.elo), "+inf");
        assert_eq!(format_elo(-0.01), "+0.0");
        assert_eq!(format_elo(-3.04), "-3.0");
        assert_eq!(Tally::default().elo(), None);
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-400.0, -35.5, 0.0, 10.0, 250.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
        assert!(close(score_from_elo(0.0), 0.5, 1e-12));
    }

    #[test]
    fn sprt_bounds_and_parse() {
        let sprt = Sprt::parse("0, 10, 0.05, 0.05").expect("valid");
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944, 0.001));
        assert!(close(upper, 2.944, 0.001));
        assert!(Sprt::parse("10,0,0.05,0.05").is_err());
        assert!(Sprt::parse("0,10,0,0.05").is_err());
        assert!(Sprt::parse("0,10,0.05").is_err());
        assert!(Sprt::parse("0,x,0.05,0.05").is_err());
        assert!(Sprt::parse("0,NaN,0.05,0.05").is_err());
    }

    #[test]
    fn sprt_accepts_and_rejects_clear_data() {
        let sprt = Sprt::new(0.0, 20.0, 0.05, 0.05).expect("valid");
        // Far stronger: 600 wins, 200 draws, 200 losses; H1 accepted.
        let strong = Tally::new(600, 200, 200);
        assert!(sprt.llr(&strong) > sprt.bounds().1);
        assert_eq!(sprt.decision(&strong), SprtDecision::AcceptH1);
        // Far weaker: the mirror; H0 accepted.
        let weak = Tally::new(200, 200, 600);
        assert!(sprt.llr(&weak) < sprt.bounds().0);
        assert_eq!(sprt.decision(&weak), SprtDecision::AcceptH0);
        // Even over a few games: no decision.
        let few = Tally::new(3, 4, 3);
        assert_eq!(sprt.decision(&few), SprtDecision::Continue);
        // Even over many games: H0 (0 Elo) accepted.
        let even = Tally::new(3000, 4000, 3000);
        assert_eq!(sprt.decision(&even), SprtDecision::AcceptH0);
        // No spread yet: no decision.
        assert_eq!(sprt.llr(&Tally::new(7, 0, 0)), 0.0);
        assert_eq!(sprt.llr(&Tally::default()), 0.0);
    }

    #[test]
    fn sprt_llr_matches_the_formula() {
        // 55 wins, 10 draws, 35 losses against elo0 = 0, elo1 = 50.
        let sprt = Sprt::new(0.0, 50.0, 0.05, 0.05).expect("valid");
        let tally = Tally::new(55, 10, 35);
        let s = 0.6;
        let variance = (55.0 * 0.4f64.powi(2) + 10.0 * 0.1f64.powi(2) + 35.0 * 0.36) / 100.0;
        let s0 = 0.5;
        let s1 = score_from_elo(50.0);
        let expected = 100.0 * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * variance);
        assert!(close(sprt.llr(&tally), expected, 1e-9));
        assert!(expected > 0.0);
    }
}
