//! Schnorr ad-hoc threshold multisignatures (ATMS) on Jubjub, proved with IOG's midnight stack
//! (`midnight-proofs` KZG over BLS12-381, `midnight-circuits` chips): the relation and statement
//! of our BN254 `schnorr-atms` circuit, on the curves a Plutus script can verify.
//!
//! A committee of `n` Jubjub keys (prime-order subgroup) is committed to in one of two ways
//! ([`CommitmentMode`]):
//! - **flat** (as sidechains-zk): `C = Poseidon(x_0, y_0, ..., x_{n-1}, y_{n-1})`; the circuit
//!   has one slot per member, each holding a signature or a disabled flag;
//! - **Merkle** (the ATMS paper's relation): `C` = root of a Poseidon Merkle tree with leaves
//!   `Poseidon(x_i, y_i)`; `slots` signer slots, each with a path, at strictly increasing leaf
//!   indices so no key counts twice.
//!
//! The public statement is [`AtmsInstance`]: `[commitment, message, threshold]` at the offsets
//! [`AtmsInstance::COMMITMENT`], [`AtmsInstance::MESSAGE`], [`AtmsInstance::THRESHOLD`]. The
//! proof establishes that **at least `threshold`** slots hold a valid Schnorr signature on
//! `message` by distinct committee members: `s G = R + c pk` with `c = Poseidon(R.x, R.y, pk.x,
//! pk.y, m)` over BLS12-381's scalar field (midnight-circuits' Poseidon).
//!
//! **Message rule**: the signed bytes become `m = blake2b-256(bytes) mod q`, the 32-byte digest
//! read big-endian, `q` BLS12-381's scalar-field order ([`message_to_field`]): one
//! `blake2b_256` builtin call and one reduction in Plutus.
//!
//! **Cofactor** (Jubjub has cofactor 8): keys are required in the prime-order subgroup when a
//! committee is formed ([`VerifyingKey`] wraps a subgroup point; [`Committee::new`] refuses the
//! identity); the circuit checks no curve equation of its own, and why neither that nor an
//! in-circuit clearing is needed is in [`circuit`]'s docs.
//!
//! **The signature check** runs on a scalar ladder of ours ([`ladder`]): `s G - c pk` in one
//! row per bit pair, the added points looked up in a four-entry table per slot (454 rows per
//! slot, where two of midnight-circuits' Edwards `mul`s took 1,131). SNARK-Mithril on Jubjub
//! runs the same ladder with two lanes for its DLEQ proof.
//!
//! The curve-independent parts (commitment modes, Merkle depth, mapping signatures to members,
//! slot assignment) are the `atms-core` crate's, shared with the BN254 circuit.
//!
//! Use: [`Committee`] -> members sign -> [`Certificate::aggregate`] -> [`AtmsWitness::new`] ->
//! [`prover::keygen`] / [`prover::prove`] / [`prover::verify`] (or the MockProver in tests).
#![deny(missing_docs)]

pub mod circuit;
mod error;
pub mod ladder;
mod native;
pub mod prover;
mod witness;

pub use circuit::AtmsCircuit;
pub use error::AtmsError;
pub use native::{
    challenge, challenge_scalar, committee_depth, coordinates, generator, message_to_field,
    poseidon, possession_message, Base, Certificate, CheckError, CommitmentMode, Committee,
    JubjubScalar, MerkleTree, Signature, SigningKey, VerifyingKey,
};
pub use witness::{AtmsInstance, AtmsShape, AtmsWitness, JubjubAtms, SlotWitness};
