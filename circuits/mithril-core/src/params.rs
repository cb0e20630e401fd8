//! Parameters `(m, k, phi_f)` and the network presets.

use num_integer::Integer;
use serde::{Deserialize, Serialize};

use crate::CoreError;

/// `phi_f` as a reduced fraction strictly between 0 and 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PhiF {
    num: u64,
    den: u64,
}

impl PhiF {
    /// `num / den`, reduced; fails unless `0 < num < den`.
    pub fn new(num: u64, den: u64) -> Result<Self, CoreError> {
        if num == 0 || num >= den {
            return Err(CoreError::PhiFOutOfRange { num, den });
        }
        let g = num.gcd(&den);
        Ok(Self {
            num: num / g,
            den: den / g,
        })
    }

    /// Numerator (reduced).
    pub fn num(&self) -> u64 {
        self.num
    }

    /// Denominator (reduced).
    pub fn den(&self) -> u64 {
        self.den
    }
}

/// The STM parameters: `m` lotteries, quorum `k`, and `phi_f`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Parameters {
    m: u64,
    k: u64,
    phi_f: PhiF,
}

impl Parameters {
    /// Cardano mainnet (since 2026-02): `k = 1944`, `m = 16948`, `phi_f = 0.2`.
    pub const MAINNET: Parameters = Parameters {
        m: 16948,
        k: 1944,
        phi_f: PhiF { num: 1, den: 5 },
    };
    /// Cardano preprod: `k = 5`, `m = 100`, `phi_f = 0.7`.
    pub const PREPROD: Parameters = Parameters {
        m: 100,
        k: 5,
        phi_f: PhiF { num: 7, den: 10 },
    };

    /// Checked parameters: `0 < k <= m < 2^32`, `phi_f` strictly between 0 and 1.
    pub fn new(m: u64, k: u64, phi_f: PhiF) -> Result<Self, CoreError> {
        if m == 0 || m >= 1 << 32 {
            return Err(CoreError::InvalidParameters("m must satisfy 0 < m < 2^32"));
        }
        if k == 0 || k > m {
            return Err(CoreError::InvalidParameters("k must satisfy 0 < k <= m"));
        }
        Ok(Self { m, k, phi_f })
    }

    /// Number of lotteries.
    pub fn m(&self) -> u64 {
        self.m
    }

    /// Quorum: the number of distinct winning indices a certificate needs.
    pub fn k(&self) -> u64 {
        self.k
    }

    /// `phi_f`.
    pub fn phi_f(&self) -> PhiF {
        self.phi_f
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets() {
        let m = Parameters::MAINNET;
        assert_eq!(
            (m.m(), m.k(), m.phi_f().num(), m.phi_f().den()),
            (16948, 1944, 1, 5)
        );
        let p = Parameters::PREPROD;
        assert_eq!(
            (p.m(), p.k(), p.phi_f().num(), p.phi_f().den()),
            (100, 5, 7, 10)
        );
        assert_eq!(
            Parameters::new(16948, 1944, PhiF::new(2, 10).unwrap()).unwrap(),
            m
        );
    }

    #[test]
    fn invalid_parameters() {
        assert!(PhiF::new(0, 5).is_err());
        assert!(PhiF::new(5, 5).is_err());
        assert!(PhiF::new(6, 5).is_err());
        let phi = PhiF::new(1, 2).unwrap();
        assert!(Parameters::new(0, 0, phi).is_err());
        assert!(Parameters::new(10, 0, phi).is_err());
        assert!(Parameters::new(10, 11, phi).is_err());
        assert!(Parameters::new(1 << 32, 1, phi).is_err());
        assert!(Parameters::new(10, 10, phi).is_ok());
    }
}
