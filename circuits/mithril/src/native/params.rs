//! Parameters `(m, k, phi_f)` and the network presets (from `mithril-core`, shared with the Jubjub
//! circuit), their Poseidon digest, and the domain tags of every hash.

use halo2_base::halo2_proofs::halo2curves::ff::Field;
use tms_gadgets::{
    curve::curve_b,
    hash::{NativeHash, Poseidon},
    Fr,
};

pub use mithril_core::params::{Parameters, PhiF};

/// The parameters' digest over BN254's scalar field (the registration digest binds it).
pub trait ParametersDigest {
    /// `Poseidon(PARAMS tag, m, k, phi_f num, phi_f den)` (leaf mode).
    fn digest(&self) -> Fr;
}

impl ParametersDigest for Parameters {
    fn digest(&self) -> Fr {
        Poseidon
            .hash_leaf(&[
                Tag::Params.value(),
                Fr::from(self.m()),
                Fr::from(self.k()),
                Fr::from(self.phi_f().num()),
                Fr::from(self.phi_f().den()),
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
    fn preset_digests_differ() {
        assert_ne!(Parameters::MAINNET.digest(), Parameters::PREPROD.digest());
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
