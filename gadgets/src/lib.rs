//! Shared gadgets for threshold multisignature circuits over the BN254 scalar field.
//!
//! # Layout
//! The modules are layered; each imports only from the layers above it in this table, so no
//! import runs in a circle (`tests/structure/import_graph.py` checks it in CI).
//!
//! | layer | module | what |
//! |---|---|---|
//! | 0 | [`GadgetError`], [`Fr`], [`message`], [`field`], [`cpu`] | the error type, the circuit field, message bytes to the field, field elements as canonical limbs and their sign, which field arithmetic this build runs |
//! | 1 | [`bank`] | the custom-gate bank: columns, the rows gadgets append, which gate a row enables |
//! | 2 | [`hash`] | Poseidon and Rescue-Prime: native, on the generic gate (Poseidon), on custom round gates |
//! | 2 | [`table`] | a dynamic table on the bank: rows entered by the circuit, tuples looked up in them |
//! | 3 | [`curve`] | Grumpkin: the generic-gate chip, the custom ladders (Straus, pair MSM, DLEQ), hash to curve (over any [`hash`] chip) |
//! | 3 | [`merkle`] | Merkle trees over any hash: native trees and in-circuit paths, batches, whole trees |
//! | 4 | [`signature`] | Schnorr (single, batch) and BLS on BN254 |
//! | 5 | [`hybrid`] | the circuit that holds halo2-base's builder and the bank; the registry that configures every gate |
//! | 6 | [`proving`] | KZG parameters, key files, prove/verify, circuit statistics |
//! | 7 | [`testing`] | the MockProver and round-trip harness; [`reference`](mod@reference): generic-gate cross-checks |
//!
//! # Which implementation each circuit uses
//! | primitive | native twin | in-circuit (used by) | reference |
//! |---|---|---|---|
//! | Poseidon (width 3, x^5, 8 + 57 rounds) | [`hash::Poseidon`] | [`hash::PoseidonGateChip`], 183 cells (SNARK-Mithril); [`hash::PoseidonChip`], generic gate (BLS ATMS) | `light-poseidon`, circomlib's vector |
//! | Rescue-Prime (width 4, rate 3, 11 rounds) | [`hash::RescuePrime`] | [`hash::RescueGateChip`], 180 cells (Schnorr ATMS); [`hash::RescueChip`], 2,247 on the generic gate (the chunk join of `tms-aggregation`) | each other; the Python reference |
//! | Merkle path, batch, whole tree | [`merkle::MerkleTree`] | [`merkle::MerkleChip`] over any hash chip (all three circuits) | |
//! | hash to Grumpkin (Poseidon, RFC 9380 SvdW) | [`curve::hash_to_curve::hash_to_grumpkin`] | [`curve::HashToCurveChip`] (SNARK-Mithril) | the Python reference's vectors |
//! | Grumpkin add, double, canonical scalars | `halo2curves`' `grumpkin` | [`curve::GrumpkinChip`] (all Grumpkin circuits) | |
//! | `s G + c P` | `halo2curves`, [`curve::glv::split`] | [`curve::glv::GlvChip`], 128 ladder rows on the endomorphism (Schnorr ATMS); [`curve::straus::StrausChip`], 16 cells per bit (SNARK-Mithril) | [`reference::GenericLadder`] |
//! | `a P + b Q` | `halo2curves`, [`curve::msm::chain_rows`] | [`curve::msm::MsmPairChip`] (Schnorr ATMS batch mode) | [`reference::GenericLadder`] |
//! | DLEQ `s G = A + c P`, `s H = B + c Q` | `halo2curves`, [`curve::dleq::variable_ladder_rows`] | [`curve::dleq::DleqChip`] (SNARK-Mithril) | |
//! | Schnorr on Grumpkin | [`signature::schnorr::SigningKey`] | [`signature::schnorr::SchnorrChip`] (Schnorr ATMS) | [`reference::GenericSchnorrChip`] |
//! | Schnorr batch verification | [`signature::batch::verify_native`] | [`signature::batch::SchnorrBatchChip`] (Schnorr ATMS batch mode) | |
//! | BLS on BN254 (RFC 9380 hash to G2, proofs of possession) | [`signature::bls`] | the BLS ATMS circuit (halo2-ecc's pairing chip) | gnark-crypto vectors, py_ecc |
//!
//! The proving backend is `halo2-axiom`, reached only through [`halo2_base`]'s re-exports so that
//! there is one copy of every type.
#![deny(missing_docs)]

pub mod bank;
pub mod cpu;
pub mod curve;
pub mod encoding;
mod error;
pub mod field;
pub mod hash;
pub mod hybrid;
pub mod merkle;
pub mod message;
pub mod proving;
pub mod reference;
pub mod signature;
pub mod table;
pub mod testing;
pub mod timing;

pub use error::GadgetError;
pub use halo2_base;
/// The circuit field: the BN254 scalar field.
pub use halo2_base::halo2_proofs::halo2curves::bn256::Fr;
