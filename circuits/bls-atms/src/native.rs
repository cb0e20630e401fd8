//! The native side: encodings, digests, committees, witnesses, the cost model.

use halo2_base::{
    halo2_proofs::halo2curves::{
        bn256::{Fq, Fq2, G1Affine, G2Affine, G1},
        ff::{Field, PrimeField},
        group::{prime::PrimeCurveAffine, Curve},
        CurveAffine,
    },
    utils::{decompose_biguint, fe_to_biguint},
};
use tms_gadgets::{
    bls::{hash_to_g2, is_in_g2, verify_aggregate, PublicKey, Signature, MESSAGE_DST},
    hash::{NativeHash, Poseidon},
    Fr,
};

use crate::{
    depth_of, stock::StockPoseidon, AtmsError, AtmsInstance, AtmsShape, AtmsWitness, NodeHash,
    Strategy, LIMB_BITS, NUM_LIMBS,
};

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

/// The six Poseidon words of a G2 point: the limbs of `x.c0, x.c1, y.c0, y.c1`, two per word.
pub fn g2_words(p: &G2Affine) -> [Fr; 6] {
    let limbs: Vec<Fr> = [p.x.c0, p.x.c1, p.y.c0, p.y.c1]
        .iter()
        .flat_map(fq_limbs)
        .collect();
    let shift = limb_shift();
    std::array::from_fn(|i| limbs[2 * i] + shift * limbs[2 * i + 1])
}

/// The committee digest: `Poseidon_leaf(root, key_words(ivk))`.
pub fn committee_digest(root: Fr, ivk: &G1Affine) -> Fr {
    let w = key_words(ivk);
    Poseidon
        .hash_leaf(&[root, w[0], w[1]])
        .expect("three inputs")
}

/// The message digest: `Poseidon_leaf(g2_words(H(m)))`.
pub fn message_digest(hm: &G2Affine) -> Fr {
    Poseidon.hash_leaf(&g2_words(hm)).expect("six inputs")
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
        Self::from_keys(members.iter().map(|(k, _)| *k).collect())
    }

    /// A committee of keys whose proofs of possession were checked elsewhere (or, in keygen
    /// and benchmarks, keys made here). Checks validity and uniqueness.
    pub fn from_keys(keys: Vec<PublicKey>) -> Result<Self, AtmsError> {
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

    /// The committee root under `hash`.
    pub fn root(&self, hash: NodeHash) -> Fr {
        let levels = match hash {
            NodeHash::Poseidon => self.levels(&Poseidon),
            NodeHash::StockPoseidon => self.levels(&StockPoseidon),
        };
        levels.last().expect("root level")[0]
    }

    /// The committee digest under `hash` (what a registration contract stores).
    pub fn digest(&self, hash: NodeHash) -> Fr {
        committee_digest(self.root(hash), &self.ivk())
    }
}

/// One non-signer slot of the circuit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NonSignerSlot {
    /// Whether the slot holds a non-signer (disabled slots contribute nothing).
    pub enabled: bool,
    /// The leaf index (committee position).
    pub index: usize,
    /// The key subtracted from `ivk` when enabled.
    pub key: G1Affine,
}

impl NonSignerSlot {
    /// What a disabled slot holds: index 0 and the generator (any on-curve point would do).
    pub fn disabled() -> Self {
        Self {
            enabled: false,
            index: 0,
            key: G1Affine::generator(),
        }
    }
}

impl AtmsWitness {
    /// The witness proving that the members at `signatures`' indices (strictly increasing)
    /// signed `message`, for threshold `threshold`. Checks everything the circuit will: the
    /// aggregate signature verifies, at least `threshold` signed, the non-signers fit the slots.
    pub fn new(
        shape: AtmsShape,
        committee: &Committee,
        message: &[u8],
        signatures: &[(usize, Signature)],
        threshold: u64,
    ) -> Result<Self, AtmsError> {
        let sigma = Signature::aggregate(&signatures.iter().map(|(_, s)| *s).collect::<Vec<_>>());
        let signers: Vec<usize> = signatures.iter().map(|(i, _)| *i).collect();
        Self::from_aggregate(shape, committee, message, &signers, sigma, threshold)
    }

    /// As [`Self::new`] for an aggregator that holds only the sum `sigma` of the signatures of
    /// the members at `signers` (strictly increasing).
    pub fn from_aggregate(
        shape: AtmsShape,
        committee: &Committee,
        message: &[u8],
        signers: &[usize],
        sigma: Signature,
        threshold: u64,
    ) -> Result<Self, AtmsError> {
        shape.validate()?;
        if committee.len() != shape.n {
            return Err(AtmsError::CommitteeSize {
                expected: shape.n,
                got: committee.len(),
            });
        }
        for (pos, i) in signers.iter().enumerate() {
            if *i >= shape.n {
                return Err(AtmsError::NotInCommittee(pos));
            }
            if pos > 0 && signers[pos - 1] >= *i {
                return Err(AtmsError::SignersNotIncreasing(pos));
            }
        }
        if (signers.len() as u64) < threshold {
            return Err(AtmsError::BelowThreshold {
                count: signers.len(),
                threshold,
            });
        }
        let signer_keys: Vec<PublicKey> = signers.iter().map(|i| committee.keys()[*i]).collect();
        if signers.is_empty()
            || !verify_aggregate(&PublicKey::aggregate(&signer_keys), message, &sigma)
        {
            return Err(AtmsError::InvalidSignature);
        }
        let non_signers: Vec<usize> = (0..shape.n)
            .filter(|i| signers.binary_search(i).is_err())
            .collect();
        let hm = hash_to_g2(message, MESSAGE_DST);
        Self::from_parts(shape, committee, hm, sigma.0, &non_signers, threshold)
    }

    /// The witness from its parts, unchecked beyond the statement's range (keygen uses it).
    pub(crate) fn from_parts(
        shape: AtmsShape,
        committee: &Committee,
        hm: G2Affine,
        signature: G2Affine,
        non_signers: &[usize],
        threshold: u64,
    ) -> Result<Self, AtmsError> {
        if non_signers.len() > shape.capacity {
            return Err(AtmsError::TooManyNonSigners {
                non_signers: non_signers.len(),
                capacity: shape.capacity,
            });
        }
        let instance = AtmsInstance {
            committee: committee.digest(shape.hash),
            message: message_digest(&hm),
            threshold,
        };
        instance.validate(&shape)?;
        let mut slots: Vec<NonSignerSlot> = non_signers
            .iter()
            .map(|&index| NonSignerSlot {
                enabled: true,
                index,
                key: committee.keys()[index].0,
            })
            .collect();
        slots.resize(shape.capacity, NonSignerSlot::disabled());
        Ok(Self {
            shape,
            committee: committee.clone(),
            instance,
            ivk: committee.ivk(),
            hm,
            signature,
            slots,
        })
    }

    /// Checks the witness can be laid out without a panic (the prover's entry check): slot
    /// count and indices, every point valid (sigma in G2), and no step of `ivk - sum` hitting
    /// an x-coordinate collision (which the circuit's strict subtraction refuses).
    pub fn check_layout(&self) -> Result<(), AtmsError> {
        self.shape.validate()?;
        self.instance.validate(&self.shape)?;
        if self.committee.len() != self.shape.n {
            return Err(AtmsError::CommitteeSize {
                expected: self.shape.n,
                got: self.committee.len(),
            });
        }
        if self.slots.len() != self.shape.capacity {
            return Err(AtmsError::SlotCount {
                expected: self.shape.capacity,
                got: self.slots.len(),
            });
        }
        let g1_ok = |p: &G1Affine| !bool::from(p.is_identity()) && bool::from(p.is_on_curve());
        let g2_ok = |p: &G2Affine| !bool::from(p.is_identity()) && bool::from(p.is_on_curve());
        if !g1_ok(&self.ivk) {
            return Err(AtmsError::InvalidPoint("ivk"));
        }
        if !g2_ok(&self.hm) {
            return Err(AtmsError::InvalidPoint("H(m)"));
        }
        if !g2_ok(&self.signature) || !is_in_g2(&self.signature) {
            return Err(AtmsError::InvalidPoint("sigma"));
        }
        let mut acc = self.ivk;
        for (j, slot) in self.slots.iter().enumerate() {
            if slot.index >= 1 << self.shape.depth() {
                return Err(AtmsError::SlotOutOfRange(j));
            }
            if !g1_ok(&slot.key) {
                return Err(AtmsError::InvalidPoint("non-signer key"));
            }
            if acc.x == slot.key.x {
                return Err(AtmsError::InvalidPoint("ivk minus non-signers"));
            }
            if slot.enabled {
                acc = (G1::from(acc) - slot.key).to_affine();
                if bool::from(acc.is_identity()) {
                    return Err(AtmsError::InvalidPoint("avk"));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
/// The x0-ladder subgroup test of G2, natively (the circuit lays out the same steps):
/// `[x0 + 1]Q + psi([x0]Q) + psi^2([x0]Q) == psi^3([2 x0]Q)`.
pub(crate) fn g2_subgroup_identity(q: &G2Affine) -> bool {
    use halo2_base::halo2_proofs::halo2curves::{bn256::G2, group::Group};
    use tms_gadgets::bls::{psi, X0};
    let q = G2::from(*q);
    let a = q * halo2_base::halo2_proofs::halo2curves::bn256::Fr::from(X0);
    let lhs = a + q + psi(&a) + psi(&psi(&a));
    let rhs = psi(&psi(&psi(&a.double())));
    lhs == rhs
}

/// The constants of `psi`: `xi^((p-1)/3)` and `xi^((p-1)/2)`, `xi = 9 + u`.
pub(crate) fn psi_constants() -> (Fq2, Fq2) {
    let xi = Fq2 {
        c0: Fq::from(9),
        c1: Fq::ONE,
    };
    let p_minus_1 = fe_to_biguint(&-Fq::ONE);
    let pow = |e: num_bigint::BigUint| xi.pow_vartime(e.to_u64_digits());
    (pow(&p_minus_1 / 3u8), pow(&p_minus_1 / 2u8))
}

// Cost model (advice cells), calibrated on measured layouts (see the crate README).
/// A node hash with its index-bit swap, our Poseidon.
const NODE: usize = 2_262;
/// A node hash with halo2-base's stock Poseidon (two permutations).
const NODE_STOCK: usize = 4_528;
/// Transcript and LogUp work per slot (half a permutation for its node, an inversion).
const LOOKUP_SLOT: usize = 1_200;
/// LogUp work per row entry (an inversion, a multiplicity range check and packing).
const LOOKUP_ROW: usize = 30;

/// Estimated membership advice cells that depend on the strategy, for a committee of `n`,
/// `capacity` slots: path segments, the upper tree, the lookup. (The per-slot key work, the
/// digests and the pairing are the same for every strategy and left out.)
pub fn estimate_cells(n: usize, capacity: usize, strategy: Strategy, hash: NodeHash) -> usize {
    let depth = depth_of(n);
    let cut = strategy.cut(depth);
    let node = match hash {
        NodeHash::Poseidon => NODE,
        NodeHash::StockPoseidon => NODE_STOCK,
    };
    let mut cells = capacity * cut * node;
    if cut < depth {
        let row = 1usize << (depth - cut);
        cells += (row - 1) * node + capacity * LOOKUP_SLOT + row * LOOKUP_ROW;
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use tms_gadgets::bls::{clear_cofactor, map_to_curve_svdw};

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
    fn psi_constants_match_the_native_psi() {
        let q = hash_to_g2(b"psi", MESSAGE_DST);
        let (cx, cy) = psi_constants();
        let (mut x, mut y) = (q.x, q.y);
        x.conjugate();
        y.conjugate();
        let mine = G2Affine {
            x: x * cx,
            y: y * cy,
        };
        assert_eq!(mine, tms_gadgets::bls::psi(&q.into()).to_affine());
    }

    #[test]
    fn words_are_injective_encodings() {
        let p = G1Affine::generator();
        let neg = -p;
        assert_ne!(key_words(&p), key_words(&neg));
        assert_eq!(key_words(&p)[0], key_words(&neg)[0]);
    }
}
