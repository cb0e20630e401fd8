//! The eligibility target `T(w) = ceil(phi(w) * r)`, `phi(w) = 1 - (1 - phi_f)^w`, computed with
//! certified (interval) fixed-point arithmetic, for the scalar field modulus `r` of any circuit
//! (BN254's for `mithril-snark`, BLS12-381's for `mithril-jubjub`).
//!
//! # Method
//! Every real quantity is carried as an interval `[lo, hi] * 2^-p` of integers at precision `p`
//! bits, rounded outwards at every step (products and quotients: `lo` rounded down, `hi` up), and
//! every truncated series gets a proven bound on its tail added to `hi`. So the true value lies in
//! the interval by construction, whatever the accumulated rounding error.
//!
//! 1. `L = ln(1 / (1 - phi_f)) = ln(den / (den - num))`: write `den / (den - num) = 2^e x` with
//!    `x` in `[1, 2)` (exact integer comparisons), then `L = e ln 2 + 2 atanh(y)` with
//!    `y = (x - 1) / (x + 1)` in `[0, 1/3)` (an exact rational) and `ln 2 = 2 atanh(1/3)`.
//!    `atanh(y) = sum y^(2i+1) / (2i+1)`; after the loop stops at the first `y^(2i+1) <= 2^-p`
//!    the tail is at most `y^(2i+1) / (1 - y^2) <= (9/8) y^(2i+1)`, and `2 * hi(y^(2i+1))` is added.
//! 2. `z = w L` with `w = stake / total` exact.
//! 3. `exp(z) = sum z^i / i!`, stopped once `i >= 2 ceil(z)` and the term is at most `2^-p`:
//!    from there each term is at most half the previous, so the tail is at most the last term.
//! 4. `exp(-z) = 1 / exp(z)`, `phi = 1 - exp(-z)`, both with outward rounding.
//! 5. `T = ceil(phi r)`: computed from both ends of the interval. If both ends give the same
//!    integer, it is the exact `ceil(phi(w) r)`; otherwise the precision doubles (320, 640, ...,
//!    2560 bits) and, past that, [`CoreError::TargetUndecided`] is returned.
//!
//! At 320 bits the interval of `phi(w) r` is narrower than `2^-50` (the tests measure it), so a
//! retry happens only when `phi(w) r` is within `2^-50` of an integer.
//!
//! # Why `ceil` and not `floor`
//! A lottery value `ev` (an integer in `[0, r)`) wins iff `ev < phi(w) r` (Mithril's rule
//! `ev / r < phi(w)`). For an integer `ev` and a real `x`, `ev < x` iff `ev < ceil(x)`. So with
//! `T = ceil(phi(w) r)` the integer comparison `ev < T` is **exactly** the real rule: there is
//! no disagreement band at all. (`phi(w) r` is never an integer for `0 < w`: see the README.)
//! `floor` would make `ev = floor(phi(w) r)` lose although it lies below `phi(w) r`.
//!
//! `T < r` always: `phi(w) <= phi_f < 1`, so `T <= ceil(phi_f r) < r`.

use crate::{params::PhiF, CoreError};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};

/// The first working precision, in bits.
pub const START_PRECISION: usize = 320;
/// The largest working precision before giving up.
pub const MAX_PRECISION: usize = 2560;

/// A certified target and the evaluation that produced it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// `ceil(phi(w) r)`, exact.
    pub value: BigUint,
    /// The precision (bits) at which the interval was decisive.
    pub precision: usize,
    /// Upper bound of the width of the certified interval of `phi(w) r`, as `2^width_log2`
    /// (`None` for `w = 0`, which is exact).
    pub width_log2: Option<i64>,
}

/// An interval `[lo, hi] * 2^-p`.
#[derive(Clone, Debug)]
struct Iv {
    lo: BigUint,
    hi: BigUint,
}

fn shr_ceil(a: &BigUint, p: usize) -> BigUint {
    let q = a >> p;
    if &q << p == *a {
        q
    } else {
        q + 1u32
    }
}

fn ceil_div(a: &BigUint, b: &BigUint) -> BigUint {
    let (q, rem) = a.div_rem(b);
    if rem.is_zero() {
        q
    } else {
        q + 1u32
    }
}

struct Fixed {
    p: usize,
}

impl Fixed {
    fn rational(&self, num: &BigUint, den: &BigUint) -> Iv {
        let scaled = num << self.p;
        Iv {
            lo: &scaled / den,
            hi: ceil_div(&scaled, den),
        }
    }

    fn mul(&self, a: &Iv, b: &Iv) -> Iv {
        Iv {
            lo: (&a.lo * &b.lo) >> self.p,
            hi: shr_ceil(&(&a.hi * &b.hi), self.p),
        }
    }

    fn div_int(&self, a: &Iv, n: &BigUint) -> Iv {
        Iv {
            lo: &a.lo / n,
            hi: ceil_div(&a.hi, n),
        }
    }

    /// `atanh(num / den)` for `0 <= num / den <= 1/3`.
    fn atanh(&self, num: &BigUint, den: &BigUint) -> Iv {
        let y = self.rational(num, den);
        let y2 = self.mul(&y, &y);
        let mut pow = y;
        let mut sum = Iv {
            lo: BigUint::zero(),
            hi: BigUint::zero(),
        };
        let mut i: u64 = 0;
        loop {
            let t = self.div_int(&pow, &BigUint::from(2 * i + 1));
            sum.lo += t.lo;
            sum.hi += t.hi;
            pow = self.mul(&pow, &y2);
            i += 1;
            if pow.hi <= BigUint::one() {
                break;
            }
        }
        // Tail: sum_{j >= i} y^(2j+1) / (2j+1) <= y^(2i+1) / (1 - y^2) <= (9/8) y^(2i+1).
        sum.hi += &pow.hi * 2u32;
        sum
    }

    /// `ln(a / b)` for `a >= b > 0`.
    fn ln_ratio(&self, a: &BigUint, b: &BigUint) -> Iv {
        // e = floor(log2(a / b)).
        let mut e = (a.bits() as i64 - b.bits() as i64).max(0) as usize;
        while e > 0 && (b << e) > *a {
            e -= 1;
        }
        let b_e = b << e;
        let at = self.atanh(&(a - &b_e), &(a + &b_e));
        let ln2 = self.atanh(&BigUint::one(), &BigUint::from(3u32));
        Iv {
            lo: (&ln2.lo * e + &at.lo) * 2u32,
            hi: (&ln2.hi * e + &at.hi) * 2u32,
        }
    }

    /// `exp(z)` for `z >= 0`.
    fn exp(&self, z: &Iv) -> Iv {
        let one = BigUint::one() << self.p;
        let z_ceil = (&z.hi >> self.p) + 1u32;
        let mut term = Iv {
            lo: one.clone(),
            hi: one,
        };
        let mut sum = term.clone();
        let mut i: u64 = 0;
        loop {
            i += 1;
            term = self.div_int(&self.mul(&term, z), &BigUint::from(i));
            sum.lo += &term.lo;
            sum.hi += &term.hi;
            if BigUint::from(i) >= &z_ceil * 2u32 && term.hi <= BigUint::one() {
                break;
            }
        }
        // Tail: every further term is at most half the previous one.
        sum.hi += &term.hi;
        sum
    }
}

/// The certified target `ceil(phi(w) r)` of a party with `stake` out of `total`, for the field
/// modulus `r` (an odd prime above `2^64`, so that `phi(w) r` is never an integer for `w > 0`).
pub fn target(phi_f: PhiF, stake: u64, total: u64, r: &BigUint) -> Result<Target, CoreError> {
    if stake > total {
        return Err(CoreError::StakeAboveTotal { stake, total });
    }
    if stake == 0 {
        return Ok(Target {
            value: BigUint::zero(),
            precision: 0,
            width_log2: None,
        });
    }
    let mut p = START_PRECISION;
    while p <= MAX_PRECISION {
        if let Some(t) = target_at(phi_f, stake, total, p, r) {
            return Ok(t);
        }
        p *= 2;
    }
    Err(CoreError::TargetUndecided)
}

fn target_at(phi_f: PhiF, stake: u64, total: u64, p: usize, r: &BigUint) -> Option<Target> {
    let fx = Fixed { p };
    let den = BigUint::from(phi_f.den());
    let num = BigUint::from(phi_f.num());
    let l = fx.ln_ratio(&den, &(&den - &num));
    let (s, t) = (BigUint::from(stake), BigUint::from(total));
    let z = Iv {
        lo: &l.lo * &s / &t,
        hi: ceil_div(&(&l.hi * &s), &t),
    };
    let e = fx.exp(&z);
    let one = BigUint::one() << p;
    let two_p = BigUint::one() << (2 * p);
    // exp(-z) in [2^2p / e.hi, 2^2p / e.lo]; e.lo >= 2^p > 0.
    let em_lo = &two_p / &e.hi;
    let em_hi = ceil_div(&two_p, &e.lo).min(one.clone());
    let phi_lo = &one - em_hi;
    let phi_hi = &one - em_lo.min(one.clone());
    let t_lo = shr_ceil(&(&phi_lo * r), p);
    let t_hi = shr_ceil(&(&phi_hi * r), p);
    if t_lo != t_hi {
        return None;
    }
    let width = (&phi_hi - &phi_lo) * r;
    let width_log2 = width.bits() as i64 - p as i64;
    Some(Target {
        value: t_lo,
        precision: p,
        width_log2: Some(width_log2),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// BLS12-381's scalar field order (the modulus of `mithril-jubjub`).
    fn r() -> BigUint {
        BigUint::parse_bytes(
            b"73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001",
            16,
        )
        .unwrap()
    }

    #[test]
    fn full_stake_is_phi_f_exactly() {
        for (n, d) in [(1u64, 5u64), (7, 10), (1, 3), (999, 1000)] {
            let phi = PhiF::new(n, d).unwrap();
            let t = target(phi, 1000, 1000, &r()).unwrap();
            let exact = ceil_div(&(r() * n), &BigUint::from(d));
            assert_eq!(t.value, exact);
            assert!(t.width_log2.unwrap() < -50, "{:?}", t.width_log2);
        }
    }

    #[test]
    fn zero_stake_and_monotone() {
        let phi = PhiF::new(1, 5).unwrap();
        assert_eq!(target(phi, 0, 10, &r()).unwrap().value, BigUint::zero());
        let mut prev = BigUint::zero();
        for s in [1u64, 2, 10, 1000, 500_000, 999_999, 1_000_000] {
            let t = target(phi, s, 1_000_000, &r()).unwrap().value;
            assert!(t > prev);
            prev = t;
        }
        assert!(matches!(
            target(phi, 2, 1, &r()),
            Err(CoreError::StakeAboveTotal { .. })
        ));
    }

    #[test]
    fn half_power_of_quarter() {
        // phi_f = 3/4, w = 1/2: phi = 1 - (1/4)^(1/2) = 1/2 exactly, T = ceil(r / 2) = (r + 1) / 2.
        let phi = PhiF::new(3, 4).unwrap();
        let t = target(phi, 1, 2, &r()).unwrap();
        assert_eq!(t.value, (r() + 1u32) / 2u32);
    }
}
