//! The eligibility target `T(w) = ceil(phi(w) * r)` on BN254 (`r` its scalar field order): the
//! certified arithmetic of `mithril_core::eligibility` (shared with the Jubjub circuit) at
//! BN254's modulus. The method, as there:
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
//!    2560 bits) and, past that, [`mithril_core::CoreError::TargetUndecided`] is returned.
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

use tms_gadgets::curve::fr_modulus;

use crate::{params::PhiF, MithrilError};

pub use mithril_core::eligibility::{Target, MAX_PRECISION, START_PRECISION};

/// The certified target `ceil(phi(w) r)` of a party with `stake` out of `total`.
pub fn target(phi_f: PhiF, stake: u64, total: u64) -> Result<Target, MithrilError> {
    Ok(mithril_core::eligibility::target(
        phi_f,
        stake,
        total,
        &fr_modulus(),
    )?)
}

#[cfg(test)]
mod tests {
    use mithril_core::CoreError;
    use num_bigint::BigUint;

    use super::*;

    #[test]
    fn full_stake_is_phi_f_exactly() {
        for (n, d) in [(1u64, 5u64), (7, 10), (1, 3), (999, 1000)] {
            let phi = PhiF::new(n, d).unwrap();
            let t = target(phi, 1000, 1000).unwrap();
            let r = fr_modulus();
            let exact = (&r * n + d - 1u32) / BigUint::from(d);
            assert_eq!(t.value, exact);
            assert!(t.width_log2.unwrap() < -50, "{:?}", t.width_log2);
        }
    }

    #[test]
    fn half_power_of_quarter() {
        // phi_f = 3/4, w = 1/2: phi = 1 - (1/4)^(1/2) = 1/2 exactly, T = ceil(r / 2) = (r + 1) / 2.
        let phi = PhiF::new(3, 4).unwrap();
        let t = target(phi, 1, 2).unwrap();
        assert_eq!(t.value, (fr_modulus() + 1u32) / 2u32);
        assert!(matches!(
            target(phi, 2, 1),
            Err(MithrilError::Core(CoreError::StakeAboveTotal { .. }))
        ));
    }
}
