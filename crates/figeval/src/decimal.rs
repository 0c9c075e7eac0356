//! Decimal text of doubles, exact, without the standard library's float formatting and parsing.
//!
//! The browser app's bundle carries every routine it links, and the standard library's float
//! printing (Grisu with its Dragon fallback, for the fixed, exponent and shortest forms) and
//! parsing (Eisel–Lemire with its tables and a big-decimal fallback) weigh about 20 KB. This
//! module does the same work with one small exact method: every finite double is
//! `m × 2^e`, so its decimal expansion is finite and is computed exactly (the digits of
//! `m × 5^-e`, or of `m × 2^e`), and every rounding is done on those digits. It is slower than
//! the standard library's (a report prints a few hundred numbers), and its output is the same
//! text byte for byte:
//!
//! - [`fixed`]`(x, p)` is `format!("{x:.p$}")`: the exact value rounded half to even at `p`
//!   decimals;
//! - [`scientific`]`(x, p)` is `format!("{x:.p$e}")`: `p + 1` significant digits, the same
//!   rounding, and the exponent without a `+`;
//! - [`shortest`]`(x)` is `format!("{x}")` (and `x.to_string()`): the fewest digits that read
//!   back as `x`, the nearest such when several are, laid out without an exponent;
//! - [`parse`]`(s)` is `s.parse::<f64>()`: the same inputs accepted, the nearest double (ties
//!   to even);
//! - [`round4`]`(x)` is Python's `round(x, 4)`, the rounding of every rate (contract §5.1).
//!
//! The tests hold each against the standard library on random bit patterns and strings.

use std::cmp::Ordering;
use std::fmt;

/// A nonnegative decimal `0.d₁d₂…dₙ × 10^point`: digits 0–9, the first and the last nonzero;
/// no digits is zero.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Digits {
    d: Vec<u8>,
    point: i32,
}

impl Digits {
    /// Drops leading and trailing zeros (the value is unchanged).
    fn normalized(mut self) -> Digits {
        while self.d.last() == Some(&0) {
            self.d.pop();
        }
        let lead = self.d.iter().take_while(|&&c| c == 0).count();
        self.d.drain(..lead);
        self.point -= lead as i32;
        if self.d.is_empty() {
            self.point = 0;
        }
        self
    }

    /// The digit of the place `10^place`.
    fn at(&self, place: i32) -> u8 {
        usize::try_from(self.point - 1 - place)
            .ok()
            .and_then(|i| self.d.get(i).copied())
            .unwrap_or(0)
    }

    /// The lowest place with a nonzero digit (`0` for zero).
    fn lowest(&self) -> i32 {
        self.point - self.d.len() as i32
    }

    /// How many digits lie at places `10^place` and above.
    fn kept(&self, place: i32) -> usize {
        usize::try_from(i64::from(self.point) - i64::from(place)).unwrap_or(0)
    }

    /// The digits at places `10^place` and above (rounded toward zero).
    fn trunc(&self, place: i32) -> Digits {
        let n = self.kept(place).min(self.d.len());
        Digits {
            d: self.d[..n].to_vec(),
            point: self.point,
        }
        .normalized()
    }

    /// `self + 10^place`, for a value with no digit below that place.
    fn plus_unit(&self, place: i32) -> Digits {
        if self.d.is_empty() {
            return Digits {
                d: vec![1],
                point: place + 1,
            };
        }
        let mut d = self.d.clone();
        d.resize(self.kept(place), 0);
        let mut point = self.point;
        loop {
            match d.last_mut() {
                Some(9) => {
                    d.pop();
                }
                Some(c) => {
                    *c += 1;
                    break;
                }
                None => {
                    d.push(1);
                    point += 1;
                    break;
                }
            }
        }
        Digits { d, point }.normalized()
    }

    /// Whether the digits below `10^place` are more than half a unit of that place, or exactly
    /// half and the digit at the place is odd: rounding half to even goes up.
    fn rounds_up(&self, place: i32) -> bool {
        let below = place - 1;
        match self.at(below).cmp(&5) {
            Ordering::Greater => true,
            Ordering::Equal => self.lowest() < below || self.at(place) % 2 == 1,
            Ordering::Less => false,
        }
    }

    /// Rounded half to even at the place `10^place`.
    fn round(&self, place: i32) -> Digits {
        let t = self.trunc(place);
        if self.rounds_up(place) {
            t.plus_unit(place)
        } else {
            t
        }
    }

    /// The value's order against another's.
    fn cmp_value(&self, other: &Digits) -> Ordering {
        match (self.d.is_empty(), other.d.is_empty()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            (false, false) => self
                .point
                .cmp(&other.point)
                .then_with(|| self.d.cmp(&other.d)),
        }
    }
}

/// `big × k` in place (little-endian base 2^32 limbs).
fn mul_small(big: &mut Vec<u32>, k: u32) {
    let mut carry = 0u64;
    for limb in big.iter_mut() {
        let v = u64::from(*limb) * u64::from(k) + carry;
        *limb = v as u32;
        carry = v >> 32;
    }
    if carry > 0 {
        big.push(carry as u32);
    }
}

/// `big / k` in place; returns the remainder.
fn div_small(big: &mut Vec<u32>, k: u32) -> u32 {
    let mut rem = 0u64;
    for limb in big.iter_mut().rev() {
        let v = (rem << 32) | u64::from(*limb);
        *limb = (v / u64::from(k)) as u32;
        rem = v % u64::from(k);
    }
    while big.last() == Some(&0) {
        big.pop();
    }
    rem as u32
}

/// The exact decimal digits of `m × 2^e`.
fn exact(m: u64, e: i32) -> Digits {
    let mut big = vec![m as u32, (m >> 32) as u32];
    // 2^e with e ≥ 0 multiplies by 2 each step; 2^e with e < 0 is 5^-e / 10^-e.
    let (step, most, mut left) = if e >= 0 { (2, 31, e) } else { (5, 13, -e) };
    while left > 0 {
        let k = left.min(most);
        mul_small(&mut big, step_pow(step, k));
        left -= k;
    }
    while big.last() == Some(&0) {
        big.pop();
    }
    let mut chunks = Vec::new();
    while !big.is_empty() {
        chunks.push(div_small(&mut big, 1_000_000_000));
    }
    let mut d = Vec::with_capacity(chunks.len() * 9);
    for c in chunks.iter().rev() {
        let mut p = 100_000_000;
        while p > 0 {
            d.push((c / p % 10) as u8);
            p /= 10;
        }
    }
    let point = d.len() as i32 + e.min(0);
    Digits { d, point }.normalized()
}

fn step_pow(step: u32, k: i32) -> u32 {
    (0..k).fold(1, |acc, _| acc * step)
}

/// A finite double's sign and parts `m × 2^e`; `None` for infinities and NaN.
pub(crate) fn parts(x: f64) -> Option<(bool, u64, i32)> {
    if !x.is_finite() {
        return None;
    }
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1 << 52) - 1);
    let (m, e) = if biased == 0 {
        (frac, -1074)
    } else {
        (frac | (1 << 52), biased - 1075)
    };
    Some((x.is_sign_negative(), m, e))
}

/// How the standard library writes an infinity or NaN.
fn non_finite(x: f64) -> String {
    if x.is_nan() {
        "NaN".to_string()
    } else if x > 0.0 {
        "inf".to_string()
    } else {
        "-inf".to_string()
    }
}

/// Appends the digits of places `high` down to `low` (inclusive), with a point before place -1.
fn lay_out(out: &mut String, v: &Digits, high: i32, low: i32) {
    let mut place = high;
    while place >= low {
        if place == -1 {
            out.push('.');
        }
        out.push(char::from(b'0' + v.at(place)));
        place -= 1;
    }
}

/// `x` with `frac` decimals, as `format!("{x:.frac$}")` writes it: the exact value rounded half
/// to even, `-` on every negative value (`-0.00` included), `NaN`, `inf` and `-inf`.
pub fn fixed(x: f64, frac: usize) -> String {
    let Some((neg, m, e)) = parts(x) else {
        return non_finite(x);
    };
    // A double has no digit below 10^-1074, so more decimals only add zeros.
    let low = -(frac.min(1100) as i32);
    let v = exact(m, e).round(low);
    let mut out = String::from(if neg { "-" } else { "" });
    lay_out(&mut out, &v, v.point.max(1) - 1, low);
    out.extend(std::iter::repeat_n('0', frac - frac.min(1100)));
    out
}

/// `x` in scientific form with `frac` decimals, as `format!("{x:.frac$e}")` writes it:
/// `5.96e-8`, `1.00e0`, `0.00e0`.
pub fn scientific(x: f64, frac: usize) -> String {
    let Some((neg, m, e)) = parts(x) else {
        return non_finite(x);
    };
    let frac = frac.min(1100) as i32;
    let exact = exact(m, e);
    let (v, exp) = if exact.d.is_empty() {
        (exact, 0)
    } else {
        let r = exact.round(exact.point - 1 - frac);
        let exp = r.point - 1;
        (r, exp)
    };
    let mut out = String::from(if neg { "-" } else { "" });
    // The digits shifted so that the first is at place 0.
    let shifted = Digits { d: v.d, point: 1 };
    lay_out(&mut out, &shifted, 0, -frac);
    out.push('e');
    out.push_str(&exp.to_string());
    out
}

/// `x` as `format!("{x}")` and `x.to_string()` write it: the shortest digits that read back as
/// `x` (the nearest to `x` among several, a tie upward), without an exponent: `0.5833`, `96`,
/// `1000000000000000000000`, `-0`.
pub fn shortest(x: f64) -> String {
    let Some((neg, m, e)) = parts(x) else {
        return non_finite(x);
    };
    let mut out = String::from(if neg { "-" } else { "" });
    if m == 0 {
        out.push('0');
        return out;
    }
    let v = shortest_digits(m, e);
    lay_out(&mut out, &v, v.point.max(1) - 1, v.lowest().min(0));
    out
}

/// The shortest decimal that rounds to `m × 2^e` (m > 0), as the standard library's Dragon
/// algorithm chooses it: the interval is halfway to each neighbour, below it a quarter of the
/// step when `m` is the smallest normal mantissa (as the standard library reckons even for the
/// smallest normal double), bounds included when `m` is even; at the coarsest place with a
/// multiple of it inside, the nearer of the two around `x` that are inside (the upper when
/// both are as near).
fn shortest_digits(m: u64, e: i32) -> Digits {
    let x = exact(m, e);
    let lo = if m == 1 << 52 {
        exact(4 * m - 1, e - 2)
    } else {
        exact(2 * m - 1, e - 1)
    };
    let hi = exact(2 * m + 1, e - 1);
    let inclusive = m % 2 == 0;
    let above_lo = |v: &Digits| match v.cmp_value(&lo) {
        Ordering::Greater => true,
        Ordering::Equal => inclusive,
        Ordering::Less => false,
    };
    let below_hi = |v: &Digits| match v.cmp_value(&hi) {
        Ordering::Less => true,
        Ordering::Equal => inclusive,
        Ordering::Greater => false,
    };
    // x itself is inside, so the loop ends at x's lowest digit at the latest.
    let mut place = hi.point - 1;
    loop {
        let down = x.trunc(place);
        let up = down.plus_unit(place);
        match (above_lo(&down), below_hi(&up)) {
            // Exactly halfway goes up, as the standard library's Dragon does.
            (true, true) if x.at(place - 1) >= 5 => return up,
            (true, true) => return down,
            (true, false) => return down,
            (false, true) => return up,
            (false, false) => place -= 1,
        }
    }
}

/// Why a text is not a decimal number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotANumber;

impl fmt::Display for NotANumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "not a decimal number: digits with at most one point, an optional sign and exponent \
             (`2.5`, `-1e3`), or inf or nan",
        )
    }
}

/// Reads a double as `s.parse::<f64>()` does: an optional sign, then `inf`, `infinity` or `nan`
/// in any case, or digits with at most one point (at least one digit) and an optional exponent
/// (`e` or `E`, an optional sign, digits); no spaces. The value is the double nearest the
/// decimal, ties to the even one; past the largest double it is infinity.
pub fn parse(s: &str) -> Result<f64, NotANumber> {
    let (neg, rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let sign = |v: f64| if neg { -v } else { v };
    for (word, v) in [
        ("inf", f64::INFINITY),
        ("infinity", f64::INFINITY),
        ("nan", f64::NAN),
    ] {
        if rest.eq_ignore_ascii_case(word) {
            return Ok(sign(v));
        }
    }
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all_digits = |t: &str| t.bytes().all(|c| c.is_ascii_digit());
    if int.len() + frac.len() == 0 || !all_digits(int) || !all_digits(frac) {
        return Err(NotANumber);
    }
    let exp = match exponent {
        None => 0,
        Some(t) => {
            let (eneg, digits) = match t.as_bytes().first() {
                Some(b'-') => (true, &t[1..]),
                Some(b'+') => (false, &t[1..]),
                _ => (false, t),
            };
            if digits.is_empty() || !all_digits(digits) {
                return Err(NotANumber);
            }
            // Past a million the value is 0 or infinity whatever the digits say.
            let e = digits.bytes().fold(0i64, |acc, c| {
                (acc * 10 + i64::from(c - b'0')).min(1_000_000)
            });
            if eneg {
                -e
            } else {
                e
            }
        }
    };
    let point = (int.len() as i64 + exp).clamp(-2_000_000, 2_000_000) as i32;
    let d = Digits {
        d: int.bytes().chain(frac.bytes()).map(|c| c - b'0').collect(),
        point,
    }
    .normalized();
    if d.d.is_empty() {
        return Ok(sign(0.0));
    }
    // Below 10^-324 is below half the smallest double; 10^309 is past the largest.
    if d.point < -323 {
        return Ok(sign(0.0));
    }
    if d.point > 310 {
        return Ok(sign(f64::INFINITY));
    }
    Ok(sign(f64::from_bits(nearest_bits(&d))))
}

/// The bits of the double nearest `d` (positive), ties to even, infinity past the largest: the
/// first bit pattern whose upper midpoint (halfway to the next double, or to 2^1024 after the
/// largest) is above `d`, or equal to it with an even mantissa.
fn nearest_bits(d: &Digits) -> u64 {
    let (mut lo, mut hi) = (0u64, f64::INFINITY.to_bits());
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        let (_, m, e) = parts(f64::from_bits(mid)).unwrap_or((false, 0, 0));
        let upper = exact(2 * m + 1, e - 1);
        let nearest_or_below = match d.cmp_value(&upper) {
            Ordering::Less => true,
            Ordering::Equal => mid % 2 == 0,
            Ordering::Greater => false,
        };
        if nearest_or_below {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

/// Rounds to 4 decimal places exactly as Python's `round(x, 4)` rounds a double.
///
/// Python rounds the exact binary value, ties to even: `round(1/32, 4) == 0.0312`,
/// `round(3/32, 4) == 0.0938`, and `round(0.00015, 4) == 0.0001` because 0.00015 is stored as
/// slightly less; the result is the double nearest the rounded decimal.
///
/// Here `x = m × 2^e` exactly, `q = m × 10^4 × 2^e` is rounded half to even in integers, and
/// `q / 10^4` is one correctly rounded division (q < 2^53 is exact as a double), which is the
/// nearest double to the decimal. From 2^39 on a double's step is more than 0.0001, so `x` is
/// already the double nearest its rounding and is returned as it is (as are infinities and NaN).
/// The sign is kept: a negative `x` that rounds to zero gives `-0.0`, as Python's does.
pub fn round4(x: f64) -> f64 {
    const TWO_39: f64 = (1u64 << 39) as f64;
    if !x.is_finite() || x.abs() >= TWO_39 {
        return x;
    }
    let Some((negative, m, e)) = parts(x) else {
        return x;
    };
    // m × 10^4 < 2^67; |x| < 2^39 keeps e ≤ -14 for every nonzero m, so q < 2^53.
    let scaled = u128::from(m) * 10_000;
    let q = if e >= 0 {
        scaled << e
    } else if -e >= 128 {
        0
    } else {
        let shift = -e as u32;
        let floor = scaled >> shift;
        let rem = scaled & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        if rem > half || (rem == half && floor % 2 == 1) {
            floor + 1
        } else {
            floor
        }
    };
    let r = q as f64 / 10_000.0;
    if negative {
        -r
    } else {
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Doubles whose text is easy to get wrong: zeros, ties, powers of two and ten, the ends of
    /// the range and of each binade.
    fn edge_cases() -> Vec<f64> {
        let mut v = vec![
            0.0,
            -0.0,
            0.5,
            1.5,
            2.5,
            0.125,
            0.375,
            9.995,
            0.00015,
            1.0 / 32.0,
            3.0 / 32.0,
            0.1,
            0.2,
            0.3,
            1.0 / 3.0,
            2.0 / 3.0,
            0.5833,
            5.96e-8,
            0.000999,
            0.001,
            0.0009995,
            1e21,
            1e22,
            1e23,
            123456789012345680.0,
            9007199254740993.0,
            f64::MAX,
            f64::MIN_POSITIVE,
            f64::MIN_POSITIVE / 2.0,
            f64::from_bits(1),
            f64::from_bits(2),
            f64::from_bits((1 << 52) - 1),
            f64::EPSILON,
            std::f64::consts::PI,
            26.5,
            96.0,
            1e-7,
            99.95,
            0.05,
            0.95,
            0.995,
        ];
        for k in -1074i64..1024 {
            let p = f64::from_bits(if k >= -1022 {
                ((k + 1023) as u64) << 52
            } else {
                1 << (k + 1074)
            });
            v.extend([p, p * 1.5, f64::from_bits(p.to_bits() - 1)]);
        }
        for k in -30..30 {
            let p = 10f64.powi(k);
            v.extend([
                p,
                f64::from_bits(p.to_bits() + 1),
                f64::from_bits(p.to_bits() - 1),
            ]);
        }
        v.extend(v.clone().into_iter().map(|x| -x));
        v
    }

    /// A generator of bit patterns (SplitMix64), so the samples are the same on every run.
    fn bits(n: usize) -> impl Iterator<Item = u64> {
        let mut state = 0x0066_6967_6576_616c_u64;
        (0..n).map(move |_| {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        })
    }

    /// Random bit patterns, and random doubles of the sizes reports print (0 to 1 and a little
    /// past), where most rounding happens.
    fn samples(n: usize) -> Vec<f64> {
        let mut v: Vec<f64> = bits(n).map(f64::from_bits).collect();
        v.extend(bits(n).map(|b| (b >> 11) as f64 / (1u64 << 53) as f64 * 2.0));
        v.extend(bits(n).map(|b| f64::from(b as u32 % 20_001) / 10_000.0));
        v
    }

    #[test]
    fn fixed_is_the_standard_fixed_format() {
        for x in edge_cases().into_iter().chain(samples(20_000)) {
            for p in [0usize, 1, 2, 4, 7] {
                assert_eq!(fixed(x, p), format!("{x:.p$}"), "{:#x} at {p}", x.to_bits());
            }
        }
        assert_eq!(fixed(0.125, 2), "0.12");
        assert_eq!(fixed(0.375, 2), "0.38");
        assert_eq!(fixed(-0.001, 2), "-0.00");
        assert_eq!(fixed(f64::NAN, 2), "NaN");
        assert_eq!(fixed(f64::NEG_INFINITY, 2), "-inf");
        assert_eq!(fixed(1.5, 1200), format!("{:.1200}", 1.5));
    }

    #[test]
    fn scientific_is_the_standard_exponent_format() {
        for x in edge_cases().into_iter().chain(samples(20_000)) {
            for p in [0usize, 1, 2, 5] {
                assert_eq!(
                    scientific(x, p),
                    format!("{x:.p$e}"),
                    "{:#x} at {p}",
                    x.to_bits()
                );
            }
        }
        assert_eq!(scientific(5.96e-8, 2), "5.96e-8");
        assert_eq!(scientific(0.0, 2), "0.00e0");
        assert_eq!(scientific(9.995e-5, 2), format!("{:.2e}", 9.995e-5));
    }

    #[test]
    fn shortest_is_the_standard_display() {
        for x in edge_cases().into_iter().chain(samples(20_000)) {
            assert_eq!(shortest(x), x.to_string(), "{:#x}", x.to_bits());
        }
        for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert_eq!(shortest(x), x.to_string());
        }
        assert_eq!(shortest(26.5), "26.5");
        // 2^-25 ends in ...53125: the two nearest 17-digit decimals are as near, and the upper wins.
        assert_eq!(shortest(2f64.powi(-25)), "0.000000029802322387695313");
        assert_eq!(shortest(-0.0), "-0");
    }

    #[test]
    fn parse_reads_what_display_writes_and_agrees_with_the_standard_parser() {
        for x in edge_cases().into_iter().chain(samples(500)) {
            for text in [
                shortest(x),
                fixed(x, 3),
                scientific(x, 20),
                format!("{x:e}"),
            ] {
                let ours = parse(&text).map(f64::to_bits);
                assert_eq!(ours, Ok(text.parse::<f64>().unwrap().to_bits()), "{text}");
            }
        }
    }

    #[test]
    fn parse_accepts_and_rejects_what_the_standard_parser_does() {
        let texts = [
            "",
            "+",
            "-",
            ".",
            "1.",
            ".5",
            "-.5",
            "+1",
            "1e",
            "1e+",
            "1e-3",
            "1E3",
            "e3",
            "1.2.3",
            "1_000",
            " 1",
            "1 ",
            "0x10",
            "inf",
            "-INF",
            "Infinity",
            "+infinity",
            "infin",
            "nan",
            "NaN",
            "-nan",
            "1e1000000000000",
            "1e-1000000000000",
            "0e99999999",
            "00012.5000",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "4.9e-324",
            "2.5",
            "2,5",
            "１",
            "1e+-3",
            "--1",
            "+-1",
            "30",
            "0.5",
            "3600",
            "3600.0001",
            "2.2250738585072011e-308",
            "2.2250738585072012e-308",
            "9007199254740993",
            "9007199254740992.5",
            "0.30000000000000004",
        ];
        for t in texts {
            let std = t.parse::<f64>().map_err(|_| NotANumber);
            let ours = parse(t);
            assert_eq!(ours.is_ok(), std.is_ok(), "{t:?}");
            if let (Ok(a), Ok(b)) = (ours, std) {
                assert!(
                    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                    "{t:?}"
                );
            }
        }
        // Random texts over the alphabet of numbers.
        let alphabet = b"0123456789.eE+-5";
        for (i, b) in bits(30_000).enumerate() {
            let len = 1 + i % 12;
            let t: String = (0..len)
                .map(|k| char::from(alphabet[((b >> (4 * k)) & 15) as usize]))
                .collect();
            let std = t.parse::<f64>();
            let ours = parse(&t);
            assert_eq!(ours.is_ok(), std.is_ok(), "{t:?}");
            if let (Ok(a), Ok(b)) = (ours, std) {
                assert_eq!(a.to_bits(), b.to_bits(), "{t:?}");
            }
        }
    }

    #[test]
    fn parse_rounds_long_decimals_to_the_nearest_double() {
        // Halfway between 1 and the next double, and a hair either side of it.
        let half = "1.00000000000000011102230246251565404236316680908203125";
        assert_eq!(parse(half), Ok(1.0));
        assert_eq!(parse(&format!("{half}1")), Ok(1.0 + f64::EPSILON));
        assert_eq!(
            parse("1.00000000000000011102230246251565404236316680908203124"),
            Ok(1.0)
        );
        for x in samples(300) {
            let text = fixed(x.abs(), 1100);
            assert_eq!(
                parse(&text).map(f64::to_bits),
                Ok(x.abs().to_bits()),
                "{text}"
            );
        }
    }

    #[test]
    fn rounding_ties_go_to_even_on_the_exact_binary_value() {
        assert_eq!(round4(1.0 / 32.0), 0.0312);
        assert_eq!(round4(3.0 / 32.0), 0.0938);
        assert_eq!(round4(0.00015), 0.0001, "0.00015 is stored below the tie");
        assert_eq!(round4(2.0 / 3.0), 0.6667);
        assert_eq!(round4(1.0), 1.0);
        assert_eq!(round4(0.0), 0.0);
        assert_eq!(round4(5.0 / 16.0 / 1000.0), 0.0003);
    }

    /// The standard library's text of `x` at 4 places read back: what `round4` is, the long way.
    fn round4_by_text(x: f64) -> f64 {
        if !x.is_finite() {
            return x;
        }
        format!("{x:.4}").parse().unwrap_or(x)
    }

    #[test]
    fn rounding_is_the_nearest_double_to_the_four_place_decimal() {
        let mut xs = vec![
            -0.0,
            0.00004,
            -0.00004,
            -0.00005,
            0.00005,
            f64::MIN_POSITIVE,
        ];
        // Exact ties at the fifth decimal and around them.
        for k in 1..15 {
            for j in 0..(1u64 << k).min(3000) {
                let x = j as f64 / (1u64 << k) as f64;
                xs.extend([x, -x, f64::from_bits(x.to_bits() + 1), x * 123.0]);
            }
        }
        // Around 2^39, where x starts being returned as it is.
        let two_39 = (1u64 << 39) as f64;
        for steps in 0..200u64 {
            xs.extend([
                f64::from_bits(two_39.to_bits() - steps),
                f64::from_bits(two_39.to_bits() + steps),
                f64::from_bits((two_39 * 64.0).to_bits() - steps),
            ]);
        }
        // A fixed pseudo-random spread of magnitudes (SplitMix64).
        let mut state = 7u64;
        for _ in 0..20_000 {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = (state ^ (state >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            let unit = (z >> 11) as f64 / (1u64 << 53) as f64;
            xs.extend([unit, unit * 1e6, unit * 1e13, f64::from_bits(z), unit / 1e6]);
        }
        for x in xs {
            assert_eq!(
                round4(x).to_bits(),
                round4_by_text(x).to_bits(),
                "{:#x}",
                x.to_bits()
            );
        }
        assert!(round4(f64::NAN).is_nan());
        assert_eq!(round4(f64::NEG_INFINITY), f64::NEG_INFINITY);
        assert!(round4(-0.00001).is_sign_negative());
    }
}
