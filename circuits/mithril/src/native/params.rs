//! Parameters `(m, k, phi_f)`, the network presets, and the domain tags of every hash.

use halo2_base::halo2_proofs::halo2curves::ff::Field;
use num_integer::Integer;
use serde::{Deserialize, Serialize};
use tms_gadgets::{
    curve::curve_b,
    hash::{NativeHash, Poseidon},
    Fr,
};

use crate::MithrilError;

/// `phi_f` as a reduced fraction strictly between 0 and 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PhiF {
    num: u64,
    den: u64,
}

impl PhiF {
    /// `num / den`, reduced; fails unless `0 < num < den`.
    pub fn new(num: u64, den: u64) -> Result<Self, MithrilError> {
        if num == 0 || num >= den {
            return Err(MithrilError::PhiFOutOfRange { num, den });
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
    pub fn new(m: u64, k: u64, phi_f: PhiF) -> Result<Self, MithrilError> {
        if m == 0 || m >= 1 << 32 {
            return Err(MithrilError::InvalidParameters(
                "m must satisfy 0 < m < 2^32",
            ));
        }
        if k == 0 || k > m {
            return Err(MithrilError::InvalidParameters("k must satisfy 0 < k <= m"));
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

    /// `Poseidon(PARAMS tag, m, k, phi_f num, phi_f den)` (leaf mode).
    pub fn digest(&self) -> Fr {
        Poseidon
            .hash_leaf(&[
                Tag::Params.value(),
                Fr::from(self.m),
                Fr::from(self.k),
                Fr::from(self.phi_f.num),
                Fr::from(self.phi_f.den),
            ])
            .expect("non-empty input")
    }
}

/// The domain tags. Each is the big-endian integer of its ASCII name, incremented until it is
/// **not** the x-coordinate of a Grumpkin point (`x^3 - 17` a non-square). A registration leaf
/// `(pk.x, pk.y, stake, T)` starts with an on-curve x-coordinate, so no tagged hash input is
/// ever a leaf input, and distinct tags separate the tagged hashes from one another (the leaf
/// mode's length tag separates different lengths in any case).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tag {
    /// Parameter digest.
    Params,
    /// Registration digest (root, total stake, parameters).
    Registration,
    /// The signed message bound to a registration.
    Message,
    /// The deterministic DLEQ nonce.
    Nonce,
    /// The DLEQ challenge.
    Challenge,
    /// The lottery value.
    Lottery,
    /// Hash to Grumpkin of the signed message (`H_G`, the domain of its two field elements).
    HashToCurve,
    /// A chain certificate's message: the next registration's digest and the application's.
    ChainLink,
}

impl Tag {
    /// The ASCII name the tag is derived from.
    pub fn name(self) -> &'static str {
        match self {
            Tag::Params => "tms-mithril-params",
            Tag::Registration => "tms-mithril-registration",
            Tag::Message => "tms-mithril-message",
            Tag::Nonce => "tms-mithril-dleq-nonce",
            Tag::Challenge => "tms-mithril-dleq-challenge",
            Tag::Lottery => "tms-mithril-lottery",
            Tag::HashToCurve => "tms-mithril-h2c",
            Tag::ChainLink => "tms-mithril-chain-link",
        }
    }

    /// The field element.
    pub fn value(self) -> Fr {
        let mut x = self.name().bytes().fold(Fr::zero(), |acc, b| {
            acc * Fr::from(256) + Fr::from(b as u64)
        });
        while bool::from((x * x * x + curve_b()).sqrt().is_some()) {
            x += Fr::one();
        }
        x
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
        assert_ne!(m.digest(), p.digest());
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

    #[test]
    fn tags_are_distinct_and_off_curve() {
        let tags = [
            Tag::Params,
            Tag::Registration,
            Tag::Message,
            Tag::Nonce,
            Tag::Challenge,
            Tag::Lottery,
            Tag::HashToCurve,
        ];
        for (i, a) in tags.iter().enumerate() {
            let x = a.value();
            assert!(bool::from((x * x * x + curve_b()).sqrt().is_none()));
            for b in &tags[i + 1..] {
                assert_ne!(x, b.value());
            }
        }
    }
}
