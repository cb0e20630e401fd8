//! What the circuit is given: its shape (with the membership [`Strategy`]), the public statement
//! and the prover's witness, and the cost model that picks the strategy.

use halo2_base::halo2_proofs::halo2curves::{
    bn256::{G1Affine, G2Affine, G1},
    group::{prime::PrimeCurveAffine, Curve},
    CurveAffine,
};
use tms_gadgets::{
    message::message_to_field,
    signature::bls::{is_in_g2, verify_aggregate, PublicKey, Signature},
    Fr,
};

use crate::{
    error::AtmsError,
    native::{depth_of, Committee, NodeHash},
};

/// How non-signers are proven to be committee leaves (see the crate docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// One full path per non-signer slot (the ATMS note's strategy).
    Paths,
    /// Paths up to level `cut`, the tree above it recomputed once from a witness row.
    SharedUpper {
        /// The level of the row (1 ..= depth - 1).
        cut: usize,
    },
    /// The whole tree recomputed from all leaf slots, non-signers looked up in the leaf row.
    AllLeaves,
}

impl Strategy {
    /// The cut level of this strategy for a tree of `depth`.
    pub fn cut(&self, depth: usize) -> usize {
        match self {
            Strategy::Paths => depth,
            Strategy::SharedUpper { cut } => *cut,
            Strategy::AllLeaves => 0,
        }
    }

    /// The strategy of cut level `cut` in a tree of `depth`.
    pub fn from_cut(cut: usize, depth: usize) -> Self {
        if cut >= depth {
            Strategy::Paths
        } else if cut == 0 {
            Strategy::AllLeaves
        } else {
            Strategy::SharedUpper { cut }
        }
    }

    /// The strategy with the fewest estimated advice cells ([`estimate_cells`]) for a committee
    /// of `n` and `capacity` non-signer slots, with our Poseidon.
    pub fn cheapest(n: usize, capacity: usize) -> Self {
        let depth = depth_of(n);
        (0..=depth)
            .map(|c| Strategy::from_cut(c, depth))
            .min_by_key(|s| estimate_cells(n, capacity, *s, NodeHash::Poseidon))
            .expect("at least one cut")
    }
}

impl std::fmt::Display for Strategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Strategy::Paths => write!(f, "paths"),
            Strategy::SharedUpper { cut } => write!(f, "shared-upper(cut={cut})"),
            Strategy::AllLeaves => write!(f, "all-leaves"),
        }
    }
}

/// The circuit's shape: everything keygen depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct AtmsShape {
    /// Committee size.
    pub n: usize,
    /// Number of non-signer slots (the most non-signers a proof can list).
    pub capacity: usize,
    /// Membership strategy.
    pub strategy: Strategy,
    /// Hash of the committee tree.
    pub hash: NodeHash,
    /// log2 of the number of rows.
    pub k: u32,
}

impl AtmsShape {
    /// A shape with the cheapest strategy and our Poseidon.
    pub fn auto(n: usize, capacity: usize, k: u32) -> Self {
        Self {
            n,
            capacity,
            strategy: Strategy::cheapest(n, capacity),
            hash: NodeHash::Poseidon,
            k,
        }
    }

    /// Merkle depth.
    pub fn depth(&self) -> usize {
        depth_of(self.n)
    }

    /// The cut level of the strategy.
    pub fn cut(&self) -> usize {
        self.strategy.cut(self.depth())
    }

    /// Checks the shape is usable.
    pub fn validate(&self) -> Result<(), AtmsError> {
        if self.n < 2 {
            return Err(AtmsError::CommitteeTooSmall(self.n));
        }
        if self.capacity == 0 || self.capacity > self.n {
            return Err(AtmsError::BadCapacity {
                capacity: self.capacity,
                n: self.n,
            });
        }
        if let Strategy::SharedUpper { cut } = self.strategy {
            if cut == 0 || cut >= self.depth() {
                return Err(AtmsError::BadCut {
                    cut,
                    depth: self.depth(),
                });
            }
        }
        if !(12..=26).contains(&self.k) {
            return Err(AtmsError::BadK(self.k));
        }
        Ok(())
    }
}

/// The public statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AtmsInstance {
    /// [`crate::committee_digest`] of the registration.
    pub committee: Fr,
    /// The message `m = keccak-256(bytes) mod r` ([`message_to_field`]); the circuit computes
    /// `H(m)` from it.
    pub message: Fr,
    /// The threshold t: at least t members signed.
    pub threshold: u64,
}

impl AtmsInstance {
    /// Offset of the committee digest in the instance column.
    pub const COMMITTEE: usize = 0;
    /// Offset of the message `m`.
    pub const MESSAGE: usize = 1;
    /// Offset of the threshold.
    pub const THRESHOLD: usize = 2;
    /// The number of public inputs (one instance column).
    pub const NUM_PUBLIC_INPUTS: usize = 3;

    /// The instance column, in offset order.
    pub fn to_public_inputs(&self) -> Vec<Fr> {
        vec![self.committee, self.message, Fr::from(self.threshold)]
    }

    /// The statement a verifier builds from the committee digest it trusts, the message bytes
    /// and the threshold: `m = keccak-256(bytes) mod r` ([`message_to_field`]), what a contract
    /// computes too (the circuit hashes `m` to G2 itself).
    pub fn from_trusted_digest(committee: Fr, message: &[u8], threshold: u64) -> Self {
        Self {
            committee,
            message: message_to_field(message),
            threshold,
        }
    }

    /// [`Self::from_trusted_digest`] with the digest of the trusted `committee` in `shape`
    /// (refused if its size is not the shape's).
    pub fn from_trusted(
        shape: &AtmsShape,
        committee: &Committee,
        message: &[u8],
        threshold: u64,
    ) -> Result<Self, AtmsError> {
        if committee.len() != shape.n {
            return Err(AtmsError::CommitteeSize {
                expected: shape.n,
                got: committee.len(),
            });
        }
        let instance = Self::from_trusted_digest(committee.digest(shape.hash), message, threshold);
        instance.validate(shape)?;
        Ok(instance)
    }

    /// Checks the statement is meaningful for `shape`: `1 <= t <= n`.
    pub fn validate(&self, shape: &AtmsShape) -> Result<(), AtmsError> {
        if self.threshold == 0 || self.threshold > shape.n as u64 {
            return Err(AtmsError::ThresholdOutOfRange {
                threshold: self.threshold,
                n: shape.n,
            });
        }
        Ok(())
    }
}

/// Everything the prover needs. The fields are public so that tests can play a cheating prover;
/// [`AtmsWitness::new`] builds an honest one and checks everything the circuit will.
#[derive(Clone, Debug)]
pub struct AtmsWitness {
    /// The circuit shape.
    pub shape: AtmsShape,
    /// The committee (its keys give the tree the membership proofs are taken from).
    pub committee: Committee,
    /// The public statement.
    pub instance: AtmsInstance,
    /// The aggregate committee key the prover claims (honestly: the committee's).
    pub ivk: halo2_base::halo2_proofs::halo2curves::bn256::G1Affine,
    /// The aggregate signature of the signers.
    pub signature: halo2_base::halo2_proofs::halo2curves::bn256::G2Affine,
    /// One entry per non-signer slot (`shape.capacity`).
    pub slots: Vec<NonSignerSlot>,
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
    /// signed `message` (its bytes; they sign `m = message_to_field(message)`), for threshold
    /// `threshold`. Checks everything the circuit will: the
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
        let m = message_to_field(message);
        let signer_keys: Vec<PublicKey> = signers.iter().map(|i| committee.keys()[*i]).collect();
        if signers.is_empty() || !verify_aggregate(&PublicKey::aggregate(&signer_keys), m, &sigma) {
            return Err(AtmsError::InvalidSignature);
        }
        let non_signers: Vec<usize> = (0..shape.n)
            .filter(|i| signers.binary_search(i).is_err())
            .collect();
        Self::from_parts(shape, committee, m, sigma.0, &non_signers, threshold)
    }

    /// The witness from its parts, unchecked beyond the statement's range (keygen uses it).
    pub(crate) fn from_parts(
        shape: AtmsShape,
        committee: &Committee,
        message: Fr,
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
            message,
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

/// The values the prover assigns to the membership cells that no constraint computes from other
/// cells: the slots' flags and indices, the siblings below the cut, the row of level `cut` and
/// the multiplicities. [`AtmsWitness::membership_values`] gives the honest ones, which
/// [`crate::synthesize_recorded`] and [`crate::synthesize_membership`] lay out; a negative test changes
/// one of them and lays the circuit out with [`crate::synthesize_membership_with`] to play a
/// cheating prover (a flag that is not a bit, an index past the tree, a forged row or
/// multiplicity), which [`AtmsWitness`]'s typed fields cannot express.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MembershipValues {
    /// Per slot: the flag `e_j` (honestly 0 or 1).
    pub flags: Vec<Fr>,
    /// Per slot: the leaf index.
    pub indices: Vec<Fr>,
    /// Per slot: the siblings of its path below the cut, the leaf level first.
    pub siblings: Vec<Vec<Fr>>,
    /// The nodes of level `cut` (the root alone for [`Strategy::Paths`]).
    pub row: Vec<Fr>,
    /// Per row entry: how many enabled slots sit under it (none for [`Strategy::Paths`], which
    /// has no lookup).
    pub multiplicities: Vec<Fr>,
}

impl AtmsWitness {
    /// The honest [`MembershipValues`] of this witness (taken from the committee's tree under
    /// the shape's hash; an index outside the tree gets zero siblings and no multiplicity, which
    /// [`Self::check_layout`] refuses before proving).
    pub fn membership_values(&self) -> MembershipValues {
        let levels = self.committee.levels_under(self.shape.hash);
        let (depth, cut) = (self.shape.depth(), self.shape.cut());
        let node = |level: usize, i: usize| {
            levels
                .get(level)
                .and_then(|l| l.get(i))
                .copied()
                .unwrap_or(Fr::zero())
        };
        let siblings = self
            .slots
            .iter()
            .map(|s| (0..cut).map(|l| node(l, (s.index >> l) ^ 1)).collect())
            .collect();
        let row = levels.get(cut).cloned().unwrap_or_default();
        let multiplicities = if cut < depth {
            let mut counts = vec![0u64; row.len()];
            for slot in self.slots.iter().filter(|s| s.enabled) {
                if let Some(c) = counts.get_mut(slot.index >> cut) {
                    *c += 1;
                }
            }
            counts.into_iter().map(Fr::from).collect()
        } else {
            vec![]
        };
        MembershipValues {
            flags: self
                .slots
                .iter()
                .map(|s| Fr::from(s.enabled as u64))
                .collect(),
            indices: self
                .slots
                .iter()
                .map(|s| Fr::from(s.index as u64))
                .collect(),
            siblings,
            row,
            multiplicities,
        }
    }
}

// Fit to layouts of 1024-of-2048 and 1602-of-2001 at cuts 0 to 3 and paths (`TMS_BLS_CUTS`,
// README): the model's differences between cuts match the measured ones within 1,000 cells.
/// A node hash with its index-bit swap, our Poseidon on the round gate (183 cells a permutation).
const NODE: usize = 197;
/// A node hash with halo2-base's stock Poseidon (two permutations on the generic gate).
const NODE_STOCK: usize = 4_528;
/// Transcript and LogUp work per slot (its share of the challenge hash, an inversion, packing).
const LOOKUP_SLOT: usize = 112;
/// LogUp work per row entry (an inversion, a multiplicity range check and packing).
const LOOKUP_ROW: usize = 16;

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
