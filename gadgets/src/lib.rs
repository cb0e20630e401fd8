//! Shared gadgets for threshold multisignature circuits over the BN254 scalar field.
//!
//! Every in-circuit gadget here has a native twin that computes the same value off-circuit, and
//! tests that the two agree on random inputs:
//!
//! | gadget | native | in-circuit |
//! |---|---|---|
//! | Poseidon (width 3, x^5, 8 full + 57 partial rounds) | [`hash::Poseidon`] | [`hash::PoseidonChip`] |
//! | Rescue-Prime (width 4, rate 3, alpha 5, 11 rounds) | [`hash::RescuePrime`], [`hash::rescue::RescuePrimeParams`] | [`hash::RescueChip`] |
//! | Merkle path, batch of paths, whole tree | [`merkle::MerkleTree`] | [`merkle::MerkleChip`] |
//! | Grumpkin curve (add, double, scalar and multi-scalar multiplication) | `halo2curves`' `grumpkin` | [`ecc::GrumpkinChip`] |
//! | BLS on BN254: RFC 9380 hash to G2, keys, proofs of possession, aggregation, pairing check | [`bls`] | (the BLS ATMS circuit, to come) |
//! | Schnorr signatures on Grumpkin | [`schnorr::SigningKey`], [`schnorr::VerifyingKey`] | [`schnorr::SchnorrChip`] |
//! | Rescue-Prime on a custom round gate (180 cells per permutation) | [`hash::RescuePrime`] | [`hash::RescueGateChip`] |
//! | `s G + c P` on a custom Straus gate (16 cells per bit), Schnorr verification on it | `halo2curves`' `grumpkin`, [`straus::ladder_rows`] | [`straus::StrausChip`] |
//! | DLEQ `s G = A + c P`, `s H = B + c Q` (variable `H`: a second ladder reading the first's bits) | `halo2curves`' `grumpkin`, [`dleq::variable_ladder_rows`] | [`dleq::DleqChip`] |
//!
//! The custom gates live beside halo2-base's columns in one circuit, [`hybrid::HybridCircuit`],
//! linked to halo2-base's cells through its copy manager (see [`hybrid`]).
//!
//! The proving backend is `halo2-axiom`, reached only through [`halo2_base`]'s re-exports so that
//! there is one copy of every type. [`testing`] holds the harness every crate of the workspace
//! uses: MockProver runs that report the failing constraint, and real KZG round trips with
//! cached (insecure, test-only) parameters.
#![deny(missing_docs)]

pub mod bls;
pub mod dleq;
pub mod ecc;
mod error;
pub mod hash;
pub mod hybrid;
pub mod merkle;
pub mod params;
pub mod proving;
pub mod schnorr;
pub mod straus;
pub mod testing;

pub use error::GadgetError;
pub use halo2_base;
/// The circuit field: the BN254 scalar field.
pub use halo2_base::halo2_proofs::halo2curves::bn256::Fr;
