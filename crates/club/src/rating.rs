//! Glicko-2 ratings.
//!
//! Mark Glickman's Glicko-2 system describes a player by three numbers: a rating, a rating
//! deviation (how unsure the rating is) and a volatility (how erratic the player's results
//! are). The numbers kept here are on the Glicko scale, where a new player starts at
//! 1500 with deviation 350 and volatility 0.06; the update works on the internal scale,
//! which divides the distance from 1500 by [`SCALE`].
//!
//! One update covers a *rating period*: every game a player finished in it, rated against
//! the opponents' ratings as they stood when the period began. The server rates each game
//! on its own, as a period of one game for both players: [`Glicko2::rate_game`] takes both
//! ratings before the game and its result and gives both ratings after it. A period in which
//! a player finished no game widens the deviation ([`Glicko2::idle`]), so that an absent
//! player's rating moves faster when they come back.
//!
//! ```
//! use bashni_club::GameScore;
//! use bashni_club::rating::{Glicko2, Rating};
//!
//! let system = Glicko2::default();
//! let (white, black) = system.rate_game(Rating::default(), Rating::default(), GameScore::WhiteWins);
//! assert!(white.rating > 1500.0 && black.rating < 1500.0);
//! assert!(white.is_provisional());
//! ```

use std::f64::consts::PI;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{GameScore, Score};

/// The factor between the Glicko scale and the internal Glicko-2 scale (400 / ln 10).
pub const SCALE: f64 = 173.7178;

/// The rating of a new player, and the centre of the Glicko scale.
pub const DEFAULT_RATING: f64 = 1500.0;

/// The deviation of a new player, and the most a deviation may grow to.
pub const MAX_DEVIATION: f64 = 350.0;

/// The volatility of a new player.
pub const DEFAULT_VOLATILITY: f64 = 0.06;

/// The system constant tau used unless another is chosen: the middle of the range 0.3 to
/// 1.2 that Glickman suggests.
pub const DEFAULT_TAU: f64 = 0.5;

/// The tolerance at which the volatility iteration stops.
pub const EPSILON: f64 = 0.000_001;

/// A rating is provisional while its deviation is above this.
///
/// 110 means that the rating's 95% interval (two deviations either side) is still wider
/// than about ±220 points. A new player (deviation 350) gets below it after about a dozen
/// games against settled opponents of similar strength; a player who stops playing becomes
/// provisional again as idle periods widen the deviation.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// How many times the volatility iteration may step before it gives up and keeps the
/// best value so far. The iteration converges in a handful of steps for any sensible
/// input; the cap only guards against a non-finite input.
const MAX_STEPS: usize = 200;

/// A player's Glicko-2 rating on the Glicko scale.
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
pub struct Rating {
    /// The rating itself; 1500 for a new player.
    pub rating: f64,
    /// The rating deviation: one standard deviation of the uncertainty about the rating.
    pub deviation: f64,
    /// The volatility: how much the player's strength is expected to wander.
    pub volatility: f64,
}

impl Default for Rating {
    /// A new player: 1500, deviation 350, volatility 0.06.
    fn default() -> Rating {
        Rating::NEW
    }
}

impl fmt::Display for Rating {
    /// The rounded rating with a `?` while it is provisional: `1500?`, `1623`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.0}", self.rating)?;
        if self.is_provisional() {
            f.write_str("?")?;
        }
        Ok(())
    }
}

impl Rating {
    /// The rating of a new player: 1500, deviation 350, volatility 0.06.
    pub const NEW: Rating = Rating {
        rating: DEFAULT_RATING,
        deviation: MAX_DEVIATION,
        volatility: DEFAULT_VOLATILITY,
    };

    /// A rating from its three numbers.
    pub const fn new(rating: f64, deviation: f64, volatility: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility,
        }
    }

    /// Whether the rating is still too unsure to show as settled: its deviation is above
    /// [`PROVISIONAL_DEVIATION`].
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The 95% interval of the rating: two deviations either side.
    pub fn interval(&self) -> (f64, f64) {
        (
            self.rating - 2.0 * self.deviation,
            self.rating + 2.0 * self.deviation,
        )
    }

    /// The rating on the internal scale: (mu, phi).
    fn internal(&self) -> (f64, f64) {
        (
            (self.rating - DEFAULT_RATING) / SCALE,
            self.deviation / SCALE,
        )
    }

    /// Whether all three numbers are finite and the deviation and volatility positive.
    pub fn is_valid(&self) -> bool {
        self.rating.is_finite()
            && self.deviation.is_finite()
            && self.deviation > 0.0
            && self.volatility.is_finite()
            && self.volatility > 0.0
    }
}

/// One finished game of a rating period, from the rated player's side.
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
pub struct PeriodGame {
    /// The opponent's rating at the start of the period.
    pub opponent: Rating,
    /// How the game ended for the rated player.
    pub score: Score,
}

/// Why a [`Glicko2`] system could not be made.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct InvalidTau(pub f64);

impl fmt::Display for InvalidTau {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the Glicko-2 constant tau must be a positive number, not {}",
            self.0
        )
    }
}

impl std::error::Error for InvalidTau {}

/// The Glicko-2 system with its constant tau, which limits how fast the volatility may
/// change (smaller values change it more slowly).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Glicko2 {
    tau: f64,
}

impl Default for Glicko2 {
    /// The system with tau [`DEFAULT_TAU`] (0.5).
    fn default() -> Glicko2 {
        Glicko2 { tau: DEFAULT_TAU }
    }
}

/// The weight Glicko-2 gives a game against an opponent whose deviation is `phi` (internal
/// scale): 1 for a perfectly known opponent, less the more unsure the opponent's rating.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

/// The expected score of a player at `mu` against an opponent at `mu_j` weighted by
/// `g_j` (internal scale).
fn expectation(mu: f64, mu_j: f64, g_j: f64) -> f64 {
    1.0 / (1.0 + (-g_j * (mu - mu_j)).exp())
}

impl Glicko2 {
    /// The system with constant `tau`, which must be a positive finite number.
    pub fn new(tau: f64) -> Result<Glicko2, InvalidTau> {
        if tau.is_finite() && tau > 0.0 {
            Ok(Glicko2 { tau })
        } else {
            Err(InvalidTau(tau))
        }
    }

    /// The system constant tau.
    pub fn tau(&self) -> f64 {
        self.tau
    }

    /// The rating after a period in which the player finished no game: rating and
    /// volatility stay, the deviation grows by the volatility (never past
    /// [`MAX_DEVIATION`]).
    pub fn idle(&self, player: Rating) -> Rating {
        let (_, phi) = player.internal();
        let phi = (phi * phi + player.volatility * player.volatility).sqrt();
        Rating {
            deviation: (phi * SCALE).min(MAX_DEVIATION),
            ..player
        }
    }

    /// The rating after `periods` periods without a game (see [`Glicko2::idle`]).
    pub fn idle_for(&self, player: Rating, periods: u32) -> Rating {
        let mut rating = player;
        for _ in 0..periods {
            if rating.deviation >= MAX_DEVIATION {
                break;
            }
            rating = self.idle(rating);
        }
        rating
    }

    /// The rating of `player` after a rating period with `games` (against opponents' ratings
    /// as they stood at the start of the period). With no games this is [`Glicko2::idle`].
    /// The deviation never ends above [`MAX_DEVIATION`].
    pub fn update(&self, player: Rating, games: &[PeriodGame]) -> Rating {
        if games.is_empty() {
            return self.idle(player);
        }
        let (mu, phi) = player.internal();
        // The estimated variance of the rating from the games alone (v) and the sum that
        // gives the estimated improvement (delta = v * sum).
        let mut information = 0.0;
        let mut sum = 0.0;
        for game in games {
            let (mu_j, phi_j) = game.opponent.internal();
            let g_j = g(phi_j);
            let e = expectation(mu, mu_j, g_j);
            information += g_j * g_j * e * (1.0 - e);
            sum += g_j * (game.score.value() - e);
        }
        let v = 1.0 / information;
        let delta = v * sum;
        let sigma = self.new_volatility(phi, player.volatility, v, delta);
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        let updated = Rating {
            rating: DEFAULT_RATING + SCALE * mu_new,
            deviation: (SCALE * phi_new).min(MAX_DEVIATION),
            volatility: sigma,
        };
        if updated.is_valid() { updated } else { player }
    }

    /// Rates one game as a period of one game for both players: both ratings after the
    /// game, from both ratings before it. This is what the server does after every rated
    /// game.
    pub fn rate_game(&self, white: Rating, black: Rating, score: GameScore) -> (Rating, Rating) {
        let white_game = PeriodGame {
            opponent: black,
            score: score.for_white(),
        };
        let black_game = PeriodGame {
            opponent: white,
            score: score.for_black(),
        };
        (
            self.update(white, &[white_game]),
            self.update(black, &[black_game]),
        )
    }

    /// The new volatility (step 5 of Glickman's description): the root of
    /// `f(x) = e^x (delta^2 - phi^2 - v - e^x) / (2 (phi^2 + v + e^x)^2) - (x - a) / tau^2`,
    /// with `a = ln(sigma^2)`, found by the Illinois variant of regula falsi to within
    /// [`EPSILON`]; the new volatility is `e^(x/2)`.
    fn new_volatility(&self, phi: f64, sigma: f64, v: f64, delta: f64) -> f64 {
        let tau = self.tau;
        let a = (sigma * sigma).ln();
        let phi2 = phi * phi;
        let delta2 = delta * delta;
        let f = |x: f64| {
            let ex = x.exp();
            let denominator = phi2 + v + ex;
            ex * (delta2 - phi2 - v - ex) / (2.0 * denominator * denominator)
                - (x - a) / (tau * tau)
        };
        // Bracket the root between A and B.
        let mut big_a = a;
        let mut big_b = if delta2 > phi2 + v {
            (delta2 - phi2 - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 && k < MAX_STEPS as f64 {
                k += 1.0;
            }
            a - k * tau
        };
        let mut f_a = f(big_a);
        let mut f_b = f(big_b);
        let mut steps = 0;
        while (big_b - big_a).abs() > EPSILON && steps < MAX_STEPS {
            let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                // The Illinois step: halve the stale end's value so the next secant moves.
                f_a /= 2.0;
            }
            big_b = c;
            f_b = f_c;
            steps += 1;
        }
        (big_a / 2.0).exp()
    }

    /// The expected score of `player` against `opponent` (0 to 1; a draw is half), with
    /// both players' deviations taken into account: the weight uses the combined deviation
    /// `sqrt(RD1^2 + RD2^2)`, so that the two players' expectations add up to 1.
    pub fn expected_score(player: Rating, opponent: Rating) -> f64 {
        let (mu, phi) = player.internal();
        let (mu_j, phi_j) = opponent.internal();
        expectation(mu, mu_j, g((phi * phi + phi_j * phi_j).sqrt()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn game(rating: f64, deviation: f64, score: Score) -> PeriodGame {
        PeriodGame {
            opponent: Rating::new(rating, deviation, DEFAULT_VOLATILITY),
            score,
        }
    }

    /// The example worked through in Glickman's "Example of the Glicko-2 system": a player
    /// at 1500 (deviation 200, volatility 0.06, tau 0.5) beats a 1400 (RD 30), loses to a
    /// 1550 (RD 100) and to a 1700 (RD 300). The paper prints 1464.06, 151.52 and 0.05999.
    /// It works with intermediate values rounded to four places (mu' = -0.2069), so each
    /// figure is checked to within one unit of its last printed place: the unrounded
    /// results are 1464.051, 151.517 and 0.059996.
    #[test]
    fn glickman_example() {
        let system = Glicko2::new(0.5).expect("tau");
        let player = Rating::new(1500.0, 200.0, 0.06);
        let games = [
            game(1400.0, 30.0, Score::Win),
            game(1550.0, 100.0, Score::Loss),
            game(1700.0, 300.0, Score::Loss),
        ];
        let after = system.update(player, &games);
        assert!(
            (after.rating - 1464.06).abs() <= 0.01,
            "rating {}",
            after.rating
        );
        assert!(
            (after.deviation - 151.52).abs() <= 0.01,
            "deviation {}",
            after.deviation
        );
        assert!(
            (after.volatility - 0.05999).abs() <= 0.000_01,
            "volatility {}",
            after.volatility
        );
    }

    /// The paper's intermediate values: phi = 1.1513, v = 1.7785, delta = -0.4834, and the
    /// volatility iteration's result. The paper computes v from g and E values rounded to
    /// four places, which moves v and delta by about 0.0005 (unrounded: 1.77898 and
    /// -0.48393); the volatility comes out the same to the printed places.
    #[test]
    fn glickman_example_steps() {
        let (mu, phi) = Rating::new(1500.0, 200.0, 0.06).internal();
        assert!((mu - 0.0).abs() < 1e-12);
        assert!((phi - 1.1513).abs() < 0.000_05);
        let opponents = [
            (1400.0, 30.0, 1.0),
            (1550.0, 100.0, 0.0),
            (1700.0, 300.0, 0.0),
        ];
        let (mut information, mut sum) = (0.0, 0.0);
        for (rating, deviation, score) in opponents {
            let (mu_j, phi_j) = Rating::new(rating, deviation, 0.06).internal();
            let e = expectation(mu, mu_j, g(phi_j));
            information += g(phi_j).powi(2) * e * (1.0 - e);
            sum += g(phi_j) * (score - e);
        }
        let v = 1.0 / information;
        assert!((v - 1.7785).abs() < 0.001, "v {v}");
        assert!((v * sum + 0.4834).abs() < 0.001, "delta {}", v * sum);
        let sigma = Glicko2::default().new_volatility(phi, 0.06, v, v * sum);
        assert!((sigma - 0.05999).abs() <= 0.000_01, "sigma {sigma}");
    }

    #[test]
    fn idle_period_widens_the_deviation_only() {
        let system = Glicko2::default();
        let player = Rating::new(1500.0, 200.0, 0.06);
        let after = system.idle(player);
        assert_eq!(after.rating, 1500.0);
        assert_eq!(after.volatility, 0.06);
        // sqrt(1.1513^2 + 0.06^2) * 173.7178 = 200.27
        assert!(
            (after.deviation - 200.27).abs() < 0.01,
            "{}",
            after.deviation
        );
        assert_eq!(system.update(player, &[]), after);
    }

    #[test]
    fn deviation_is_clamped_at_350() {
        let system = Glicko2::default();
        assert_eq!(system.idle(Rating::NEW).deviation, MAX_DEVIATION);
        let almost = Rating::new(1500.0, 349.0, 0.5);
        assert_eq!(system.idle(almost).deviation, MAX_DEVIATION);
        let long_gone = system.idle_for(Rating::new(1800.0, 60.0, 0.06), 10_000);
        assert_eq!(long_gone.deviation, MAX_DEVIATION);
        assert_eq!(long_gone.rating, 1800.0);
        // A game against a wildly unsure opponent does not push a deviation past 350.
        let after = system.update(
            Rating::new(1500.0, 350.0, 0.09),
            &[game(1500.0, 350.0, Score::Draw)],
        );
        assert!(after.deviation <= MAX_DEVIATION);
    }

    #[test]
    fn new_players_are_provisional_for_about_a_dozen_games() {
        let system = Glicko2::default();
        let mut player = Rating::NEW;
        assert!(player.is_provisional());
        let mut games = 0;
        while player.is_provisional() {
            let score = [Score::Win, Score::Draw, Score::Loss][games % 3];
            player = system.update(player, &[game(1500.0, 60.0, score)]);
            games += 1;
            assert!(games < 100, "never settles");
        }
        assert!((8..=16).contains(&games), "settled after {games} games");
        assert_eq!(player.to_string(), format!("{:.0}", player.rating));
        assert_eq!(Rating::NEW.to_string(), "1500?");
    }

    #[test]
    fn one_game_for_both_players() {
        let system = Glicko2::default();
        let a = Rating::new(1600.0, 80.0, 0.06);
        let b = Rating::new(1500.0, 120.0, 0.06);
        let (white, black) = system.rate_game(a, b, GameScore::BlackWins);
        assert!(white.rating < a.rating && black.rating > b.rating);
        assert_eq!(white, system.update(a, &[game_of(b, Score::Loss)]));
        assert_eq!(black, system.update(b, &[game_of(a, Score::Win)]));
        // An upset moves the more unsure rating further.
        assert!(black.rating - b.rating > a.rating - white.rating);
        let (white, black) = system.rate_game(Rating::NEW, Rating::NEW, GameScore::Draw);
        assert!((white.rating - 1500.0).abs() < 1e-9 && (black.rating - 1500.0).abs() < 1e-9);
        assert!(white.deviation < MAX_DEVIATION);
    }

    fn game_of(opponent: Rating, score: Score) -> PeriodGame {
        PeriodGame { opponent, score }
    }

    #[test]
    fn expected_scores() {
        let a = Rating::new(1700.0, 50.0, 0.06);
        let b = Rating::new(1500.0, 50.0, 0.06);
        let ab = Glicko2::expected_score(a, b);
        let ba = Glicko2::expected_score(b, a);
        assert!((ab + ba - 1.0).abs() < 1e-12);
        // Near the Elo figure for 200 points (0.76), a little less for the uncertainty.
        assert!(ab > 0.73 && ab < 0.76, "{ab}");
        assert_eq!(Glicko2::expected_score(b, b), 0.5);
        let unsure = Rating::new(1700.0, 350.0, 0.06);
        assert!(Glicko2::expected_score(unsure, b) < ab);
    }

    #[test]
    fn tau_must_be_positive() {
        assert!(Glicko2::new(0.0).is_err());
        assert!(Glicko2::new(-1.0).is_err());
        assert!(Glicko2::new(f64::NAN).is_err());
        assert_eq!(Glicko2::new(1.2).map(|s| s.tau()), Ok(1.2));
        assert!(InvalidTau(0.0).to_string().contains("positive"));
    }

    #[test]
    fn a_larger_tau_lets_the_volatility_move_more() {
        let player = Rating::new(1500.0, 50.0, 0.06);
        // A surprising run: three wins over much stronger players.
        let games = [
            game(2000.0, 40.0, Score::Win),
            game(2000.0, 40.0, Score::Win),
            game(2000.0, 40.0, Score::Win),
        ];
        let slow = Glicko2::new(0.3).expect("tau").update(player, &games);
        let fast = Glicko2::new(1.2).expect("tau").update(player, &games);
        assert!(slow.volatility > 0.06);
        assert!(fast.volatility > slow.volatility);
    }

    #[test]
    fn serde_round_trip() {
        let rating = Rating::new(1623.5, 74.25, 0.0599);
        let text = serde_json::to_string(&rating).expect("json");
        assert_eq!(
            text,
            r#"{"rating":1623.5,"deviation":74.25,"volatility":0.0599}"#
        );
        assert_eq!(serde_json::from_str::<Rating>(&text).expect("back"), rating);
    }

    fn rating() -> impl Strategy<Value = Rating> {
        (100.0..3000.0f64, 30.0..350.0f64, 0.02..0.12f64).prop_map(|(r, d, v)| Rating::new(r, d, v))
    }

    proptest! {
        #[test]
        fn a_win_never_lowers_and_a_loss_never_raises(
            player in rating(),
            opponent in rating(),
            tau in 0.2..1.5f64,
        ) {
            let system = Glicko2::new(tau).expect("tau");
            let won = system.update(player, &[game_of(opponent, Score::Win)]);
            let lost = system.update(player, &[game_of(opponent, Score::Loss)]);
            let drawn = system.update(player, &[game_of(opponent, Score::Draw)]);
            prop_assert!(won.rating >= player.rating);
            prop_assert!(lost.rating <= player.rating);
            prop_assert!(lost.rating <= drawn.rating && drawn.rating <= won.rating);
            for after in [won, lost, drawn] {
                prop_assert!(after.is_valid());
                prop_assert!(after.deviation <= MAX_DEVIATION);
                // One game settles the rating a little: the deviation does not grow much.
                prop_assert!(after.deviation <= (player.deviation.powi(2) + (after.volatility * SCALE).powi(2)).sqrt() + 1e-9);
            }
        }

        #[test]
        fn both_sides_of_a_game_move_the_right_way(
            white in rating(),
            black in rating(),
        ) {
            let system = Glicko2::default();
            let (w, b) = system.rate_game(white, black, GameScore::WhiteWins);
            prop_assert!(w.rating >= white.rating && b.rating <= black.rating);
            let (w, b) = system.rate_game(white, black, GameScore::BlackWins);
            prop_assert!(w.rating <= white.rating && b.rating >= black.rating);
        }
    }
}
