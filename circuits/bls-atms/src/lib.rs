//! BLS ad-hoc threshold multisignatures (ATMS) on BN254, proved in Halo2 (KZG over BN254): the
//! proposal of the ATMS note (section 2.3) with keys in G1 and signatures in G2.
//!
//! # Relation
//! Registration (native, [`Committee::register`]): `n` keys `vk_i` in G1, each with a proof of
//! possession; `root` = Poseidon Merkle root of the leaves `leaf(vk_i)`, `ivk = sum vk_i`.
//! The proof establishes, for the public statement `(committee digest, message digest, t)`:
//! - the non-signers are distinct leaves of `root` (strictly increasing leaf indices);
//! - there are at most `n - t` of them;
//! - `avk = ivk - sum(non-signer keys)`;
//! - `e(avk, H(m)) = e(g1, sigma)`: one multi-Miller loop and one final exponentiation whose
//!   Fp12 result is **constrained** equal to one.
//!
//! # Public statement ([`AtmsInstance`], three field elements)
//! | offset | value |
//! |---|---|
//! | [`AtmsInstance::COMMITTEE`] | `Poseidon_leaf(root, ivk_a, ivk_b)`: the registration, fixed per epoch |
//! | [`AtmsInstance::MESSAGE`] | `Poseidon_leaf(H(m) as six words)`: the message hash point |
//! | [`AtmsInstance::THRESHOLD`] | `t` |
//!
//! An on-chain verifier pays per public input, so the committee (a root and a G1 point, which
//! as Fr elements would be one root plus six limbs) is one digest the registration contract
//! stores once. `H(m)` is a G2 point: four Fq coordinates, each larger than Fr, so exposing it
//! would cost eight public inputs (two 127-bit halves per coordinate) against one here.
//! Hashing to G2 in-circuit (RFC 9380 SvdW + cofactor clearing on non-native Fp2) is out of
//! scope: the verifier computes `H(m)` natively ([`tms_gadgets::bls::hash_to_g2`]) and the one
//! Poseidon hash [`message_digest`]; the statement binds `H(m)` itself, not `m`. The threshold
//! stays in the clear so that one verifying key serves every `t`.
//!
//! # Encodings (what the Poseidon inputs are)
//! Fq elements are held in-circuit as three limbs of 88 bits (halo2-ecc's `FpChip`, limbs range
//! checked, the top one to 78 bits). Two limbs pack into one Fr word `l_a + 2^88 l_b`:
//! - a key `(x, y)` is the two words `[x_0 + 2^88 x_1, x_2 + 2^88 s]` with `s` the parity of the
//!   canonical `y`; in-circuit `y` is constrained below `p` (so `s` is the parity of the canonical
//!   representative, and `-vk` cannot pass for `vk`), and the point is on the curve, so `(x, s)`
//!   determines the key. The leaf is [`tms_gadgets::hash::NativeHash::hash_leaf`] of the two
//!   words (one permutation, length-tagged, domain-separated from nodes);
//! - `H(m)` is the six words pairing the twelve limbs of `x.c0, x.c1, y.c0, y.c1`.
//!
//! The limbs are not constrained to be canonical (below `p`) where the hash binds them: a
//! digest or a leaf is computed natively from canonical limbs, so by collision resistance the
//! in-circuit limbs are those very limbs.
//!
//! # Subgroup checks
//! - Keys, `ivk`, `avk`: BN254 G1 has cofactor 1, so the on-curve check on every loaded G1 point
//!   (halo2-ecc `load_private`) puts it in the order-r group.
//! - `H(m)`: on-curve checked; its coordinates are bound by the public message digest to the
//!   verifier's own `hash_to_g2` output, which clears the cofactor, so it lies in G2.
//! - `sigma`: a witness no one else sees, on the twist `E'(Fp2)` whose cofactor `2p - r` has small
//!   factors. The optimal ate pairing is bilinear only on G2; halo2-ecc's Miller loop uses the
//!   Frobenius as `[p]` (true only on G2). So the circuit checks sigma in G2 with the test of
//!   El Housni, Guillevic and Piellard (2022) for BN curves,
//!   `[x0 + 1]Q + psi([x0]Q) + psi^2([x0]Q) = psi^3([2 x0]Q)` (one 63-bit ladder, about a tenth of
//!   the pairing's cells); the native tests check the identity against `[r]Q = O` on G2 points
//!   and on twist points outside G2.
//!
//! # Membership strategies ([`Strategy`])
//! All three prove the same relation; one parameter, the *cut* level `c` (`0 <= c <= depth`),
//! spans them. Below the cut each non-signer slot walks its own path (`c` node hashes); the
//! nodes of level `c` are a witness row from which the upper tree is recomputed once
//! (`2^(depth-c) - 1` node hashes) and whose root is the committee root; each enabled slot's
//! level-`c` node must be the row entry at its position `index >> c`, a lookup proven by a
//! log-derivative (LogUp) identity `sum_j e_j / (gamma - u_j) = sum_i m_i / (gamma - r_i)` with
//! `u = node + beta * position`, the challenges `beta, gamma` squeezed in-circuit from a Poseidon
//! transcript of the root (which binds the row), the slots' nodes, positions and flags, and the
//! multiplicities `m_i` (Fiat-Shamir inside the circuit: the prover fixes every value before
//! the challenges exist, and a false lookup survives with probability at most
//! `(slots + row) / |Fr|` per hash query).
//! - [`Strategy::Paths`] (`c = depth`): the note's one path per non-signer; no row, no lookup.
//! - [`Strategy::SharedUpper`] (`0 < c < depth`): a multiproof whose upper nodes are shared.
//! - [`Strategy::AllLeaves`] (`c = 0`): the whole tree recomputed from all leaves; the
//!   multiplicities are the non-signer bitmap.
//!
//! [`Strategy::cheapest`] picks the cut by the cost model in [`estimate_cells`].
//!
//! # Non-signer slots
//! A shape has a fixed `capacity` of slots; slot `j` holds a flag `e_j`, a leaf index and a key.
//! Flags are bits and non-increasing (enabled slots first); an enabled slot's index is above the
//! previous slot's (strictly increasing, so no key is subtracted twice); a disabled slot's key is
//! not subtracted, its path is not checked, and it adds nothing to the lookup. `count = sum e_j`
//! and `t` are range checked and `n - t - count` is range checked to be non-negative.
//!
//! Use: members' keys with proofs of possession -> [`Committee::register`] -> signatures ->
//! [`AtmsWitness::new`] -> [`setup`] / [`keygen`] / [`prove`] / [`verify`].
#![deny(missing_docs)]

mod circuit;
mod native;
mod prover;
pub mod stock;

pub use circuit::{synthesize, synthesize_membership, MembershipOutput};
pub use native::{
    committee_digest, estimate_cells, g2_words, key_words, message_digest, Committee, NonSignerSlot,
};
pub use prover::{keygen, measure, prove, setup, verify, verify_with_vk, AtmsKeys};

use thiserror::Error;
use tms_gadgets::{Fr, GadgetError};

/// Bits per limb of the non-native BN254 base field.
pub const LIMB_BITS: usize = 88;
/// Limbs per Fq element.
pub const NUM_LIMBS: usize = 3;

/// How non-signers are proven to be committee leaves (see the crate docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

/// The hash of the committee tree (digests always use [`tms_gadgets::hash::PoseidonChip`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeHash {
    /// Our one-permutation Poseidon ([`tms_gadgets::hash::PoseidonChip`]).
    Poseidon,
    /// halo2-base's stock `hash_fix_len_array` (two permutations per node): the ATMS note's
    /// baseline, kept to measure against ([`stock`]).
    StockPoseidon,
}

/// Merkle depth of a committee of `n` (at least 1).
pub fn depth_of(n: usize) -> usize {
    (usize::BITS - n.saturating_sub(1).leading_zeros()).max(1) as usize
}

/// The circuit's shape: everything keygen depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
    /// [`committee_digest`] of the registration.
    pub committee: Fr,
    /// [`message_digest`] of `H(m)`.
    pub message: Fr,
    /// The threshold t: at least t members signed.
    pub threshold: u64,
}

impl AtmsInstance {
    /// Offset of the committee digest in the instance column.
    pub const COMMITTEE: usize = 0;
    /// Offset of the message digest.
    pub const MESSAGE: usize = 1;
    /// Offset of the threshold.
    pub const THRESHOLD: usize = 2;

    /// The instance column, in offset order.
    pub fn to_public_inputs(&self) -> Vec<Fr> {
        vec![self.committee, self.message, Fr::from(self.threshold)]
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
    /// `H(m)`.
    pub hm: halo2_base::halo2_proofs::halo2curves::bn256::G2Affine,
    /// The aggregate signature of the signers.
    pub signature: halo2_base::halo2_proofs::halo2curves::bn256::G2Affine,
    /// One entry per non-signer slot (`shape.capacity`).
    pub slots: Vec<NonSignerSlot>,
}

/// Errors of the BLS ATMS crate.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum AtmsError {
    /// A committee needs at least two members.
    #[error("a committee needs at least 2 members, got {0}")]
    CommitteeTooSmall(usize),
    /// The same key appears twice in the committee.
    #[error("committee members {first} and {second} have the same key")]
    DuplicateMember {
        /// First position.
        first: usize,
        /// Second position.
        second: usize,
    },
    /// A key is the identity or not on the curve.
    #[error("member {0} has an invalid key")]
    InvalidKey(usize),
    /// A proof of possession does not verify.
    #[error("member {0}'s proof of possession does not verify")]
    InvalidPossession(usize),
    /// The number of non-signer slots is outside `1..=n`.
    #[error("{capacity} non-signer slots do not fit a committee of {n}")]
    BadCapacity {
        /// Slots asked for.
        capacity: usize,
        /// Committee size.
        n: usize,
    },
    /// A shared-upper cut outside `1..depth`.
    #[error("cut level {cut} is outside 1..{depth}")]
    BadCut {
        /// The cut.
        cut: usize,
        /// The tree depth.
        depth: usize,
    },
    /// k outside the supported range.
    #[error("k = {0} is outside 12..=26")]
    BadK(u32),
    /// The committee does not match the shape.
    #[error("the committee has {got} members, the circuit shape {expected}")]
    CommitteeSize {
        /// Shape's n.
        expected: usize,
        /// Committee's size.
        got: usize,
    },
    /// The threshold is 0 or above n.
    #[error("threshold {threshold} is outside 1..={n}")]
    ThresholdOutOfRange {
        /// The threshold.
        threshold: u64,
        /// Committee size.
        n: usize,
    },
    /// A signer index outside the committee.
    #[error("signature {0} names a member outside the committee")]
    NotInCommittee(usize),
    /// Signer indices not strictly increasing (a member signing twice, or unsorted).
    #[error("signer indices must be strictly increasing (position {0})")]
    SignersNotIncreasing(usize),
    /// The aggregate of the given signatures does not verify under the signers' keys.
    #[error("the aggregate signature does not verify")]
    InvalidSignature,
    /// Fewer signers than the threshold.
    #[error("{count} signers are below the threshold {threshold}")]
    BelowThreshold {
        /// Signers.
        count: usize,
        /// Threshold.
        threshold: u64,
    },
    /// More non-signers than slots.
    #[error("{non_signers} non-signers do not fit {capacity} slots")]
    TooManyNonSigners {
        /// Non-signers.
        non_signers: usize,
        /// Slots.
        capacity: usize,
    },
    /// The witness has the wrong number of slots.
    #[error("the witness has {got} slots, the shape {expected}")]
    SlotCount {
        /// Shape's capacity.
        expected: usize,
        /// Witness slots.
        got: usize,
    },
    /// A slot names a leaf outside the tree.
    #[error("slot {0} names a leaf index outside the tree")]
    SlotOutOfRange(usize),
    /// A point of the witness is not on its curve (or is the identity), or sigma is not in G2.
    #[error("witness point {0} is not a valid curve point")]
    InvalidPoint(&'static str),
    /// The witness shape differs from the keys'.
    #[error("the witness shape differs from the proving key's")]
    ShapeMismatch,
    /// The circuit does not fit 2^k rows (or the prover failed).
    #[error("the circuit needs more than 2^{0} rows")]
    CircuitTooLarge(u32),
    /// The verifier rejected the proof.
    #[error("the proof does not verify for this statement")]
    ProofRejected,
    /// A gadget-level error.
    #[error(transparent)]
    Gadget(#[from] GadgetError),
}
