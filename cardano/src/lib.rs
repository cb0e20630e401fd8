//! The Cardano backend: KZG proofs over BLS12-381 on IOG's midnight stack (midnight-proofs
//! 0.8.3, midnight-curves 0.3.1), and Plutus V3 verifiers generated from a verifying key and
//! evaluated offline with the `uplc` crate.
//!
//! Any `midnight_proofs::plonk::Circuit<Fr>` (a midnight-circuits circuit included) goes through
//! it unchanged:
//!
//! ```ignore
//! let params = backend::kzg_params(k);                       // INSECURE test parameters
//! let (pk, vk) = backend::keygen(&params, &circuit.without_witnesses())?;
//! let proof = backend::prove(&params, &pk, circuit, &[&public], seed)?;
//! let vp = backend::verifier_params(&params);
//! assert!(backend::verify(&vp, &vk, &proof, &[&public]));
//! // The Plutus validator for a statement [commitment, message, threshold]:
//! let script = plutus::validator(&vp, &vk, &[Entry::Param(c), Entry::Message, Entry::Threshold(t)], MsmMode::Fold)?;
//! let (_, hints) = plutus::hints(&vp, &vk, &proof, &[&public]);
//! let redeemer = plutus::redeemer(message_bytes, &proof, &hints);
//! ```
//!
//! Layout: [`backend`] (parameters, keys, prove, verify), [`ceremony`] (importing Midnight's
//! ceremony SRS), [`key_file`] (verifying key files), [`scheme`] (the one prover every
//! certificate circuit on this backend goes through), [`plutus`] (the generated verifier,
//! the example validator, offline budgets), [`toy`] (test circuits).
#![deny(missing_docs)]

pub mod backend;
pub mod ceremony;
pub mod key_file;
pub mod plutus;
pub mod scheme;
pub mod toy;
