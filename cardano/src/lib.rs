//! The Cardano backend: KZG proofs over BLS12-381 on IOG's midnight stack (midnight-proofs
//! 0.8.3, midnight-curves 0.3.1), and Plutus V3 verifiers generated from a verifying key and
//! evaluated offline with the `uplc` crate.
#![deny(missing_docs)]

pub mod backend;
pub mod plutus;
pub mod toy;
