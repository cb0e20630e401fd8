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
//! ([`tms_gadgets::signature::schnorr`], challenge `H(R, pk, m)` with Rescue-Prime) on `message` by distinct
//! committee members.
//!
//! Use: [`Committee::register`] (keys with proofs of possession) -> members sign ->
//! [`Certificate::aggregate`] -> [`AtmsWitness::new`] -> [`setup`] / [`keygen`] / [`prove`] /
//! [`verify`].
#![deny(missing_docs)]

mod circuit;
mod error;
mod native;
mod prover;
mod witness;

pub use circuit::{components, placeholder_signature, synthesize_recorded};
pub use error::AtmsError;
pub use native::{committee_depth, Certificate, CheckError, CommitmentMode, Committee};
pub use prover::{
    custom_rows, example_witness, keygen, layout_stats, measure_round_trip, min_k, prove,
    prove_with_transcript, read_vk, setup, verify, verify_with_vk, AtmsKeys, MeasuredRoundTrip,
};

pub use witness::{AtmsInstance, AtmsShape, AtmsWitness, GrumpkinAtms, SlotWitness, Verification};
