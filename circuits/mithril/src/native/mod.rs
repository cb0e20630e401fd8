//! The native scheme: Mithril's STM redone with circuit-friendly primitives over BN254.
//!
//! | module | what |
//! |---|---|
//! | [`chain`] | certificate chains: each certificate binds the next registration's digest |
//! | [`params`] | `(m, k, phi_f)`, presets (mainnet, preprod), domain tags |
//! | [`eligibility`] | the eligibility target `T = ceil(phi(w) r)`: certified interval arithmetic, exact decision |
//! | [`registration`] | Poseidon leaves `(pk.x, pk.y, stake, T)` in a `MerkleTree<Poseidon>` |
//! | [`signature`] | the unique signature `sigma = sk H_G(m)` on Grumpkin with a Chaum-Pedersen DLEQ proof |
//! | [`stm`] | lottery, signer, aggregator, verifier: `ev = Poseidon(tag, sigma, j) < T` |

pub mod chain;
pub mod eligibility;
pub mod params;
pub mod registration;
pub mod signature;
pub mod stm;
