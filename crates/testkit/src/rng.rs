//! A seeded generator for synthetic test and benchmark data: the same numbers from the same
//! seed on every platform and Rust version, so a generated file can be regenerated bit for bit.

/// SplitMix64 (G. Steele, D. Lea, C. Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014), with the draws synthetic data needs. Not the core's bootstrap generator: that
/// one is the core's own business (`figeval::stats`), and this kit depends on nothing of the
/// workspace.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0), by multiplying and shifting (slightly uneven for a huge `n`,
    /// which synthetic data does not mind).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below(u64::from(hi - lo + 1)) as u32
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// A uniform float in `0..1`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_splitmix64s_reference_stream() {
        // splitmix64.c (Vigna) from seed 1234567: 6457827717110365317, 3203168211198807973.
        let mut g = Rng::new(1234567);
        assert_eq!(g.next_u64(), 6457827717110365317);
        assert_eq!(g.next_u64(), 3203168211198807973);
    }

    #[test]
    fn draws_stay_in_their_ranges() {
        let mut g = Rng::new(7);
        for _ in 0..10_000 {
            assert!(g.below(7) < 7);
            assert!((3..=5).contains(&g.range(3, 5)));
            assert!((0.0..1.0).contains(&g.unit()));
        }
        assert!(!g.chance(0.0));
        assert_eq!(*g.pick(&["only"]), "only");
    }
}
