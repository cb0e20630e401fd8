//! The native scheme: encodings, digests, committees and their trees.

use halo2_base::{
    halo2_proofs::halo2curves::{
        bn256::{Fq, G1Affine},
        ff::{Field, PrimeField},
    },
    utils::{decompose_biguint, fe_to_biguint},
};
use tms_gadgets::{
    hash::{NativeHash, Poseidon},
    signature::bls::{PublicKey, Signature},
    Fr,
};

use crate::{error::AtmsError, stock::StockPoseidon};

/// Bits per limb of the non-native BN254 base field.
pub const LIMB_BITS: usize = 88;
/// Limbs per Fq element.
pub const NUM_LIMBS: usize = 3;

/// The hash of the committee tree. The digests and the LogUp transcript always use our Poseidon
/// on the bank's round gates ([`tms_gadgets::hash::PoseidonGateChip`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NodeHash {
    /// Our one-permutation Poseidon on the bank's round gates, about 183 cells a permutation
    /// ([`tms_gadgets::hash::PoseidonGateChip`]; the same function as
    /// [`tms_gadgets::hash::PoseidonChip`] on the generic gate, about 2,214).
    Poseidon,
    /// halo2-base's stock `hash_fix_len_array` (two permutations per node): the ATMS note's
    /// baseline, kept to measure against ([`crate::stock`]).
    StockPoseidon,
}

/// Merkle depth of a committee of `n` (at least 1).
pub fn depth_of(n: usize) -> usize {
    (usize::BITS - n.saturating_sub(1).leading_zeros()).max(1) as usize
}

/// `2^88`, the weight of the second limb in a packed word.
pub(crate) fn limb_shift() -> Fr {
    Fr::from(2u64).pow_vartime([LIMB_BITS as u64])
}

/// The three 88-bit limbs of an Fq element (canonical).
pub(crate) fn fq_limbs(x: &Fq) -> Vec<Fr> {
    decompose_biguint::<Fr>(&fe_to_biguint(x), NUM_LIMBS, LIMB_BITS)
}

/// The parity of the canonical representative.
pub(crate) fn fq_parity(x: &Fq) -> u64 {
    (x.to_repr().as_ref()[0] & 1) as u64
}

/// The two Poseidon words of a G1 point: `[x_0 + 2^88 x_1, x_2 + 2^88 parity(y)]`.
pub fn key_words(p: &G1Affine) -> [Fr; 2] {
    let x = fq_limbs(&p.x);
    let shift = limb_shift();
    [
        x[0] + shift * x[1],
        x[2] + shift * Fr::from(fq_parity(&p.y)),
    ]
}

/// The committee digest: `Poseidon_leaf(root, key_words(ivk), n)` for a committee of `n`
/// members. Binding `n` matters: the circuit's count check uses the shape's `n` (a constant of
/// the verifying key), and committees of every size at one Merkle depth share the tree shape, so
/// without it a key made for `n' > n` would accept a committee of `n` with `n' - n` signers too
/// few. The circuit hashes its own `n` as a constant, so a digest made for another `n` fails.
pub fn committee_digest(root: Fr, ivk: &G1Affine, n: usize) -> Fr {
    let w = key_words(ivk);
    Poseidon
        .hash_leaf(&[root, w[0], w[1], Fr::from(n as u64)])
        .expect("four inputs")
}

/// An ordered committee of distinct, valid G1 keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Committee {
    keys: Vec<PublicKey>,
}

impl Committee {
    /// Registers members: checks every key is a valid G1 point, unique, and comes with a valid
    /// proof of possession (the rogue-key defence that makes `ivk = sum vk_i` safe).
    pub fn register(members: &[(PublicKey, Signature)]) -> Result<Self, AtmsError> {
        for (i, (key, pop)) in members.iter().enumerate() {
            if key.validate().is_err() {
                return Err(AtmsError::InvalidKey(i));
            }
            if !key.verify_possession(pop) {
                return Err(AtmsError::InvalidPossession(i));
            }
        }
        Self::from_keys_unchecked(members.iter().map(|(k, _)| *k).collect())
    }

    /// A committee of keys **without the proof-of-possession check**: for tests, benchmarks and
    /// keygen's own keys only (made in this process, so no rogue key). Checks validity and
    /// uniqueness. Committees of other people's keys come from [`Self::register`].
    pub fn from_keys_unchecked(keys: Vec<PublicKey>) -> Result<Self, AtmsError> {
        if keys.len() < 2 {
            return Err(AtmsError::CommitteeTooSmall(keys.len()));
        }
        let mut seen = std::collections::HashMap::with_capacity(keys.len());
        for (i, key) in keys.iter().enumerate() {
            if key.validate().is_err() {
                return Err(AtmsError::InvalidKey(i));
            }
            if let Some(first) = seen.insert(key.to_bytes(), i) {
                return Err(AtmsError::DuplicateMember { first, second: i });
            }
        }
        Ok(Self { keys })
    }

    /// The keys in committee order.
    pub fn keys(&self) -> &[PublicKey] {
        &self.keys
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Always false (a committee has at least two members).
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// `ivk = sum vk_i`.
    pub fn ivk(&self) -> G1Affine {
        PublicKey::aggregate(&self.keys)
    }

    /// The leaf of every member under `hasher`.
    pub fn leaves<H: NativeHash>(&self, hasher: &H) -> Vec<Fr> {
        self.keys
            .iter()
            .map(|k| hasher.hash_leaf(&key_words(&k.0)).expect("two inputs"))
            .collect()
    }

    /// All levels of the committee tree under `hasher`: `levels[0]` are the `2^depth` leaf slots
    /// (empty ones zero), `levels[depth]` is `[root]`.
    pub fn levels<H: NativeHash>(&self, hasher: &H) -> Vec<Vec<Fr>> {
        let depth = depth_of(self.keys.len());
        let mut leaves = self.leaves(hasher);
        leaves.resize(1 << depth, tms_gadgets::merkle::EMPTY_LEAF);
        let mut levels = vec![leaves];
        for _ in 0..depth {
            let below = levels.last().expect("leaves");
            let above = below
                .chunks(2)
                .map(|p| hasher.hash_node(p[0], p[1]))
                .collect();
            levels.push(above);
        }
        levels
    }

    /// [`Self::levels`] under the node hash `hash`.
    pub(crate) fn levels_under(&self, hash: NodeHash) -> Vec<Vec<Fr>> {
        match hash {
            NodeHash::Poseidon => self.levels(&Poseidon),
            NodeHash::StockPoseidon => self.levels(&StockPoseidon),
        }
    }

    /// The committee root under `hash`.
    pub fn root(&self, hash: NodeHash) -> Fr {
        self.levels_under(hash).last().expect("root level")[0]
    }

    /// The committee digest under `hash` (what a registration contract stores).
    pub fn digest(&self, hash: NodeHash) -> Fr {
        committee_digest(self.root(hash), &self.ivk(), self.len())
    }
}

#[cfg(test)]
/// The x0-ladder subgroup test of G2, natively (the circuit lays out the same steps):
/// `[x0 + 1]Q + psi([x0]Q) + psi^2([x0]Q) == psi^3([2 x0]Q)`.
pub(crate) fn g2_subgroup_identity(
    q: &halo2_base::halo2_proofs::halo2curves::bn256::G2Affine,
) -> bool {
    use halo2_base::halo2_proofs::halo2curves::{bn256::G2, group::Group};
    use tms_gadgets::signature::bls::{psi, X0};
    let q = G2::from(*q);
    let a = q * halo2_base::halo2_proofs::halo2curves::bn256::Fr::from(X0);
    let lhs = a + q + psi(&a) + psi(&psi(&a));
    let rhs = psi(&psi(&psi(&a.double())));
    lhs == rhs
}

// Cost model (advice cells), calibrated on measured layouts (see the crate README).
#[cfg(test)]
mod tests {
    use super::*;
    use halo2_base::halo2_proofs::halo2curves::bn256::Fq2;
    use halo2_base::halo2_proofs::halo2curves::group::Curve;
    use rand::SeedableRng;
    use tms_gadgets::signature::bls::{clear_cofactor, is_in_g2, map_to_curve_svdw};

    #[test]
    fn g2_subgroup_test_separates_g2_from_the_twist() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        for _ in 0..8 {
            let u = Fq2::random(&mut rng);
            let on_twist = map_to_curve_svdw(u).to_affine();
            assert!(!is_in_g2(&on_twist));
            assert!(!g2_subgroup_identity(&on_twist));
            let in_g2 = clear_cofactor(&on_twist.into()).to_affine();
            assert!(is_in_g2(&in_g2));
            assert!(g2_subgroup_identity(&in_g2));
        }
    }

    #[test]
    fn words_are_injective_encodings() {
        let p = G1Affine::generator();
        let neg = -p;
        assert_ne!(key_words(&p), key_words(&neg));
        assert_eq!(key_words(&p)[0], key_words(&neg)[0]);
    }
}
