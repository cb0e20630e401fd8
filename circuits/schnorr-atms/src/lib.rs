//! Schnorr ad-hoc threshold multisignatures (ATMS) in the style of IOG's sidechains-zk prover,
//! on BN254 with the embedded curve Grumpkin.
//!
//! A committee of `n` Grumpkin keys is committed to in one of two ways ([`CommitmentMode`]):
//! - **flat** (as sidechains-zk): `C = Rescue-Prime(x_0, y_0, ..., x_{n-1}, y_{n-1})`, the fixed-length
//!   sponge of [`tms_gadgets::hash`]; the circuit has one slot per member, each holding a
//!   signature or a disabled flag;
//! - **Merkle** (the ATMS paper's relation): `C` = root of a Rescue-Prime Merkle tree whose leaves
//!   are `hash_leaf(x_i, y_i)`; the circuit has `slots` signer slots, each with a membership path,
//!   at strictly increasing leaf indices so no key counts twice.
//!
//! The public statement is [`AtmsInstance`]: `[commitment, message, threshold]` at the offsets
//! [`AtmsInstance::COMMITMENT`], [`AtmsInstance::MESSAGE`], [`AtmsInstance::THRESHOLD`]. The
//! proof establishes that **at least `threshold`** slots hold a valid Schnorr signature
//! ([`tms_gadgets::schnorr`], challenge `H(R, pk, m)` with Rescue-Prime) on `message` by distinct
//! committee members.
//!
//! Use: [`Committee`] -> members sign -> [`Certificate::aggregate`] -> [`AtmsWitness::new`] ->
//! [`setup`] / [`keygen`] / [`prove`] / [`verify`].
#![deny(missing_docs)]

mod circuit;
mod native;
mod prover;

pub use circuit::synthesize;
pub use native::{Certificate, Committee, SlotWitness};
pub use prover::{
    custom_rows, example_witness, keygen, measure_round_trip, min_k, prove, read_vk, setup, verify,
    verify_with_vk, AtmsKeys, MeasuredRoundTrip,
};

use thiserror::Error;
use tms_gadgets::{Fr, GadgetError};

/// How the committee is committed to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CommitmentMode {
    /// One Rescue-Prime sponge over every key; one circuit slot per member.
    Flat,
    /// A Rescue-Prime Merkle root; `slots` signer slots with paths, indices strictly increasing.
    Merkle {
        /// Number of signer slots in the circuit.
        slots: usize,
    },
}

/// How the circuit checks the signatures.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Verification {
    /// One Straus ladder `s G + c (-pk)` per slot ([`tms_gadgets::straus`]).
    #[default]
    PerSignature,
    /// All slots at once: random coefficients derived in-circuit and one multi-scalar
    /// multiplication on the pair gate ([`tms_gadgets::schnorr_batch`]).
    Batch,
}

/// The circuit's shape: everything keygen depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct AtmsShape {
    /// Committee size.
    pub n: usize,
    /// Commitment mode.
    pub mode: CommitmentMode,
    /// log2 of the number of rows.
    pub k: u32,
    /// How signatures are checked (per signature in key files written before batch mode).
    #[serde(default)]
    pub verification: Verification,
}

impl AtmsShape {
    /// Number of signature slots in the circuit.
    pub fn slots(&self) -> usize {
        match self.mode {
            CommitmentMode::Flat => self.n,
            CommitmentMode::Merkle { slots } => slots,
        }
    }

    /// Merkle depth for the committee (at least 1).
    pub fn depth(&self) -> usize {
        (usize::BITS - self.n.saturating_sub(1).leading_zeros()).max(1) as usize
    }

    /// Checks the shape is usable.
    pub fn validate(&self) -> Result<(), AtmsError> {
        if self.n == 0 {
            return Err(AtmsError::EmptyCommittee);
        }
        if let CommitmentMode::Merkle { slots } = self.mode {
            if slots == 0 || slots > self.n {
                return Err(AtmsError::BadSlots { slots, n: self.n });
            }
        }
        if !(10..=26).contains(&self.k) {
            return Err(AtmsError::BadK(self.k));
        }
        Ok(())
    }
}

/// The public statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AtmsInstance {
    /// The committee commitment (flat hash or Merkle root).
    pub commitment: Fr,
    /// The signed message.
    pub message: Fr,
    /// The threshold t: at least t valid signatures.
    pub threshold: u64,
}

impl AtmsInstance {
    /// Offset of the commitment in the instance column.
    pub const COMMITMENT: usize = 0;
    /// Offset of the message.
    pub const MESSAGE: usize = 1;
    /// Offset of the threshold.
    pub const THRESHOLD: usize = 2;

    /// The instance column, in offset order.
    pub fn to_public_inputs(&self) -> Vec<Fr> {
        vec![self.commitment, self.message, Fr::from(self.threshold)]
    }

    /// Checks the statement is meaningful for `shape`: the threshold is at most the number of
    /// slots (a larger one could never be met).
    pub fn validate(&self, shape: &AtmsShape) -> Result<(), AtmsError> {
        if self.threshold > shape.slots() as u64 {
            return Err(AtmsError::ThresholdTooLarge {
                threshold: self.threshold,
                slots: shape.slots(),
            });
        }
        Ok(())
    }
}

/// Everything the prover needs: the statement and the slots' contents.
#[derive(Clone, Debug)]
pub struct AtmsWitness {
    /// The circuit shape.
    pub shape: AtmsShape,
    /// The committee.
    pub committee: Committee,
    /// The public statement.
    pub instance: AtmsInstance,
    /// One entry per circuit slot.
    pub slots: Vec<SlotWitness>,
}

/// Errors of the Schnorr ATMS crate.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum AtmsError {
    /// A committee needs at least one member.
    #[error("the committee is empty")]
    EmptyCommittee,
    /// The same key appears twice in the committee.
    #[error("committee members {first} and {second} have the same key")]
    DuplicateMember {
        /// First position.
        first: usize,
        /// Second position.
        second: usize,
    },
    /// Merkle mode needs between 1 and n slots.
    #[error("{slots} signer slots do not fit a committee of {n}")]
    BadSlots {
        /// Slots asked for.
        slots: usize,
        /// Committee size.
        n: usize,
    },
    /// k outside the supported range.
    #[error("k = {0} is outside 10..=26")]
    BadK(u32),
    /// The committee does not match the shape.
    #[error("the committee has {got} members, the circuit shape {expected}")]
    CommitteeSize {
        /// Shape's n.
        expected: usize,
        /// Committee's size.
        got: usize,
    },
    /// The threshold exceeds the slots.
    #[error("threshold {threshold} is above the {slots} signature slots")]
    ThresholdTooLarge {
        /// The threshold.
        threshold: u64,
        /// Number of slots.
        slots: usize,
    },
    /// A signature's key is not a committee member.
    #[error("signature {0} is by a key outside the committee")]
    NotInCommittee(usize),
    /// Two signatures by the same member.
    #[error("member {0} signed twice")]
    DuplicateSigner(usize),
    /// A signature does not verify.
    #[error("signature {0} does not verify for this message")]
    InvalidSignature(usize),
    /// Fewer valid signatures than the threshold.
    #[error("{count} valid signatures are below the threshold {threshold}")]
    BelowThreshold {
        /// Valid signatures.
        count: usize,
        /// Threshold.
        threshold: u64,
    },
    /// More signatures than Merkle-mode slots.
    #[error("{signatures} signatures do not fit {slots} slots")]
    TooManySignatures {
        /// Signatures given.
        signatures: usize,
        /// Slots available.
        slots: usize,
    },
    /// The witness is for another shape than the keys.
    #[error("the witness shape differs from the proving key's")]
    ShapeMismatch,
    /// The circuit does not fit 2^k rows.
    #[error("the circuit needs more than 2^{0} rows")]
    CircuitTooLarge(u32),
    /// The verifier rejected the proof.
    #[error("the proof does not verify for this statement")]
    ProofRejected,
    /// A key file that cannot be read.
    #[error("malformed key file: {0}")]
    MalformedKeys(String),
    /// A gadget-level error.
    #[error(transparent)]
    Gadget(#[from] GadgetError),
}
