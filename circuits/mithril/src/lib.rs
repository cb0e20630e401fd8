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
//! | the circuit's shape, statement and witness | | [`witness`] |
//! | the Halo2 circuit (KZG over BN254) | signer slots (path, DLEQ) and `k` index slots | [`circuit`] |
//! | setup, keygen, prove, verify, key files | | [`prover`] |
//!
//! The native scheme's modules live under [`native`] (re-exported at the crate root). Its
//! curve-independent parts (parameters, the eligibility arithmetic, registration checks, index
//! checks and selection) are the `mithril-core` crate's, shared with `mithril-jubjub`.
//!
//! See the crate's README for the design and the independent check of the eligibility rule.
#![deny(missing_docs)]

pub mod circuit;
mod error;
pub mod native;
pub mod prover;
pub mod witness;

pub use error::MithrilError;
pub use native::{chain, eligibility, params, registration, signature, stm};
pub use params::{Parameters, ParametersDigest, PhiF};
pub use prover::{
    example_certificate, example_certificate_on, keygen, layout_stats, measure_round_trip, min_k,
    prove, prove_with_transcript, read_vk, setup, Example, MeasuredRoundTrip, MithrilKeys,
};
pub use registration::{Registration, RegistrationCommitment};
pub use stm::{aggregate, verify, Certificate, Signer, SingleSignature};
pub use witness::{MithrilInstance, MithrilShape, MithrilWitness};
