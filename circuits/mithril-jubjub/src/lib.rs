//! SNARK-Mithril on Jubjub, proved with IOG's midnight stack (`midnight-proofs` KZG over
//! BLS12-381, `midnight-circuits` chips): the relation of the BN254 circuit `mithril-snark`, on
//! the curves a Plutus script can verify and those of mithril-stm's own SNARK.
//!
//! | piece | module |
//! |---|---|
//! | parameters, eligibility target, registration checks, index selection | `mithril-core` (shared with `mithril-snark`) |
//! | domain tags, registration, unique signature `sigma = sk H_J(m)` with a DLEQ proof, lottery, signer, aggregator, verifier | [`native`] |
//! | shape, statement, witness | [`witness`] |
//! | the circuit | [`circuit`] |
//! | the DLEQ ladder: both equations of a signer slot's Chaum-Pedersen proof on shared bits | [`ladder`] |
//! | setup, keygen, prove, verify (KZG over BLS12-381, the Plutus transcript) | [`prover`] |
//! | the mithril-stm mode: mithril-stm 0.13.0's relation, encodings and tags on this layout | [`stm`] |
//!
//! Keys, Poseidon, the Merkle tree and the message rule (`blake2b-256(bytes) mod q`) are those
//! of `schnorr-atms-jubjub`.
//!
//! Use: [`Registration::new`] -> [`Signer::sign`] -> [`aggregate`] -> [`MithrilWitness::new`]
//! with [`MithrilInstance::from_trusted`] -> [`prover::keygen`] / [`prover::prove`] /
//! [`prover::verify`] (or [`prover::verify_digest`] for a verifier holding only the digest).
#![deny(missing_docs)]

pub mod circuit;
mod error;
pub mod native;
pub mod prover;
pub mod stm;
pub mod witness;

/// The DLEQ ladder: `schnorr-atms-jubjub`'s scalar ladder with two lanes (both DLEQ equations).
pub use schnorr_atms_jubjub::ladder;

pub use circuit::MithrilCircuit;
pub use error::MithrilError;
pub use mithril_core::{Parameters, PhiF};
pub use native::{
    aggregate, verify, Certificate, Registration, RegistrationCommitment, Signer, SingleSignature,
    UniqueSignature,
};
pub use witness::{MithrilInstance, MithrilShape, MithrilWitness};
