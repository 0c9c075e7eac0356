//! The random number generators: SplitMix64, which seeds xoshiro256**, the bootstrap's
//! generator. Integer operations only, so every platform draws the same stream.

/// SplitMix64 (G. Steele, D. Lea, C. Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014): used only to expand one seed into the four words of [`Xoshiro256StarStar`], as
/// its authors recommend.
#[derive(Debug, Clone)]
pub(crate) struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting at `seed`.
    pub(crate) fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64-bit output.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// xoshiro256** 1.0 (D. Blackman, S. Vigna, "Scrambled linear pseudorandom number generators",
/// ACM TOMS 47, 2021): the bootstrap's generator. Integer operations only, so its stream is
/// the same on every platform.
#[derive(Debug, Clone)]
pub(crate) struct Xoshiro256StarStar([u64; 4]);

impl Xoshiro256StarStar {
    /// The generator whose four state words are the first four outputs of [`SplitMix64`] at
    /// `seed`.
    pub(crate) fn seeded(seed: u64) -> Xoshiro256StarStar {
        let mut sm = SplitMix64::new(seed);
        Xoshiro256StarStar([sm.next_u64(), sm.next_u64(), sm.next_u64(), sm.next_u64()])
    }

    /// The next 64-bit output.
    pub(crate) fn next_u64(&mut self) -> u64 {
        let s = &mut self.0;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..bound` (`bound > 0`) by Lemire's multiply-and-reject method
    /// (D. Lemire, "Fast random integer generation in an interval", ACM TOMACS 29, 2019):
    /// the high word of `x · bound`, redrawing `x` in the rare case whose low word falls below
    /// `2^64 mod bound`, so that no value is favoured. The tests draw their samples with it (the
    /// bootstrap itself takes whole outputs).
    #[cfg(test)]
    pub(crate) fn below(&mut self, bound: u64) -> u64 {
        debug_assert!(bound > 0);
        let mut m = u128::from(self.next_u64()) * u128::from(bound);
        if (m as u64) < bound {
            let threshold = bound.wrapping_neg() % bound;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(bound);
            }
        }
        (m >> 64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::bootstrap::BOOTSTRAP_SEED;

    #[test]
    fn xoshiro_matches_its_reference_stream() {
        // The reference implementation (Blackman & Vigna, xoshiro256starstar.c) started from the
        // state 1, 2, 3, 4 gives 11520, 0, 1509978240, 1215971899390074240.
        let mut g = Xoshiro256StarStar([1, 2, 3, 4]);
        let first: Vec<u64> = (0..4).map(|_| g.next_u64()).collect();
        assert_eq!(first, [11520, 0, 1509978240, 1215971899390074240]);
    }

    #[test]
    fn splitmix_matches_its_reference_stream() {
        // splitmix64.c (Vigna) from seed 1234567: 6457827717110365317, 3203168211198807973.
        let mut g = SplitMix64::new(1234567);
        assert_eq!(g.next_u64(), 6457827717110365317);
        assert_eq!(g.next_u64(), 3203168211198807973);
    }

    #[test]
    fn bounded_draws_cover_the_range_evenly() {
        let mut g = Xoshiro256StarStar::seeded(BOOTSTRAP_SEED);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[g.below(7) as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_500..10_500).contains(&c)),
            "{counts:?}"
        );
        assert!((0..100).all(|_| g.below(1) == 0));
    }
}
