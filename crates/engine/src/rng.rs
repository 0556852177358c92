//! Small, repeatable random numbers (splitmix64), so that levels, matches, openings and
//! tuning do not depend on a random-number crate or on the order in which threads finish.
//! The same seed gives the same numbers on every machine and in every release.

/// The step splitmix64 adds to its state before mixing (the golden ratio in 64 bits).
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// One step of splitmix64: a well-mixed 64-bit value from `state`.
pub fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Mixes several values into one.
pub fn mix(values: &[u64]) -> u64 {
    values
        .iter()
        .fold(0x2545_F491_4F6C_DD1D, |acc, &value| splitmix(acc ^ value))
}

/// A number in [0, 1) made of the top 53 bits of `bits`.
pub fn unit(bits: u64) -> f64 {
    (bits >> 11) as f64 / (1u64 << 53) as f64
}

/// A stream of random numbers from a seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A stream starting from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A stream whose first number is `splitmix(seed)`: the stream of [`Rng::new`] started
    /// one step earlier. The tuning's self-play data are drawn this way.
    pub fn starting_at(seed: u64) -> Rng {
        Rng(seed.wrapping_sub(GAMMA))
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GAMMA);
        splitmix(self.0)
    }

    /// A number below `bound` (which must not be 0).
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound.max(1) as u64) as usize
    }

    /// A number below `bound` made by scaling the top 32 bits of the next number (no
    /// division; `bound` at most 2^32).
    pub fn scaled_below(&mut self, bound: usize) -> usize {
        (((self.next_u64() >> 32) * bound as u64) >> 32) as usize
    }

    /// A number in [0, 1).
    pub fn unit(&mut self) -> f64 {
        unit(self.next_u64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_numbers_do_not_change() {
        // splitmix64's reference outputs for seed 0 (Vigna's splitmix64.c) are
        // splitmix(0), splitmix(GAMMA), ...; a stream from seed 0 starts one step further.
        assert_eq!(splitmix(0), 0xE220_A839_7B1D_CDAF);
        let mut rng = Rng::new(0);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.next_u64(), 0x06C4_5D18_8009_454F);
        assert_eq!(rng.next_u64(), 0xF88B_B8A8_724C_81EC);
        // Levels, openings and match seeds are made from these; they must stay put.
        assert_eq!(mix(&[1, 2]), 0x2391_4542_065B_C624);
        assert_eq!(unit(u64::MAX), 1.0 - 1.0 / (1u64 << 53) as f64);
        assert_eq!(unit(0), 0.0);
    }

    #[test]
    fn a_stream_starting_at_a_seed_begins_with_its_splitmix() {
        let mut rng = Rng::starting_at(7);
        assert_eq!(rng.next_u64(), splitmix(7));
        assert_eq!(rng.next_u64(), splitmix(7u64.wrapping_add(GAMMA)));
        for bound in [1, 2, 3, 1000] {
            assert!(rng.scaled_below(bound) < bound);
        }
    }

    #[test]
    fn below_and_unit_stay_in_range() {
        let mut rng = Rng::new(42);
        for bound in 1..50 {
            assert!(rng.below(bound) < bound);
        }
        assert_eq!(rng.below(0), 0);
        for _ in 0..1000 {
            let x = rng.unit();
            assert!((0.0..1.0).contains(&x));
        }
    }
}
