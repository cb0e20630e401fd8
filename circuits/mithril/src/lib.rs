//! SNARK-friendly Mithril (stake-based threshold multisignatures): the native scheme and its
//! circuit.
//!
//! The scheme of Mithril's STM (parameters `m` lotteries, quorum `k`, `phi_f`), redone with
//! circuit-friendly primitives over BN254 so that a Halo2 circuit (KZG over BN254, [`circuit`])
//! verifies a certificate:
//!
//! | piece | here | module |
//! |---|---|---|
//! | parameters, presets (mainnet, preprod), domain tags | `(m, k, phi_f)`, `phi_f` a fraction | [`params`] |
//! | eligibility target `T = ceil(phi(w) r)` | certified interval arithmetic, exact decision | [`eligibility`] |
//! | registration | Poseidon leaves `(pk.x, pk.y, stake, T)` in a `MerkleTree<Poseidon>` | [`registration`] |
//! | unique signature | `sigma = sk H_G(m)` on Grumpkin with a Chaum-Pedersen DLEQ proof | [`signature`] |
//! | lottery, signer, aggregator, verifier | `ev = Poseidon(tag, sigma, j) < T` | [`stm`] |
//! | the Halo2 circuit (KZG over BN254) | signer slots (path, DLEQ) and `k` index slots | [`circuit`], [`prover`] |
//!
//! See the crate's README for the design and the independent check of the eligibility rule.
#![deny(missing_docs)]

pub mod circuit;
pub mod eligibility;
mod error;
pub mod params;
pub mod prover;
pub mod registration;
pub mod signature;
pub mod stm;

pub use error::MithrilError;
pub use params::{Parameters, PhiF};
pub use prover::{
    example_certificate, keygen, layout_stats, measure_round_trip, min_k, prove, read_vk, setup,
    Example, MeasuredRoundTrip, MithrilInstance, MithrilKeys, MithrilShape, MithrilWitness,
};
pub use registration::{Registration, RegistrationCommitment};
pub use stm::{aggregate, verify, Certificate, Signer, SingleSignature};
