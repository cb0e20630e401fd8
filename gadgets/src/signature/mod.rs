//! Signatures: each scheme natively, and in-circuit where a circuit verifies it.
//!
//! | module | native | in-circuit | used by |
//! |---|---|---|---|
//! | [`schnorr`] | [`schnorr::SigningKey`], [`schnorr::VerifyingKey`] (Grumpkin, any [`crate::hash::NativeHash`] challenge) | [`schnorr::SchnorrChip`] on the Straus gate | Schnorr ATMS (per-signature mode), SNARK-Mithril's keys |
//! | [`batch`] | [`batch::verify_native`] | [`batch::SchnorrBatchChip`]: in-circuit random coefficients, one MSM on the pair gate | Schnorr ATMS (batch mode) |
//! | [`bls`] | BN254 BLS: RFC 9380 hash to G2, keys with proofs of possession, aggregation | (the BLS ATMS circuit, on halo2-ecc's pairing chip) | BLS ATMS |
//! | [`bls_hash`] | (the twin is [`bls::hash_message`]) | [`bls_hash::hash_to_g2_in_circuit`]: the message hash to G2 of a field element (Poseidon, SvdW, cofactor clearing) on halo2-ecc's Fp2 chip | BLS ATMS |

pub mod batch;
pub mod bls;
pub mod bls_hash;
pub mod schnorr;
