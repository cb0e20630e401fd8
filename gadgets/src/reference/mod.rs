//! Reference implementations on halo2-base's generic gate, kept only as independent cross-checks
//! of the custom-gate gadgets the circuits use. **No circuit uses anything here**; the tests run
//! both versions on the same inputs and compare them with the native twins.
//!
//! | reference (generic gate) | production (custom gate) |
//! |---|---|
//! | [`RescueChip`], 2,247 cells per permutation | [`crate::hash::RescueGateChip`], 180 |
//! | [`GenericLadder`] on [`crate::curve::GrumpkinChip`]: `k P`, `k G`, multi-scalar | [`crate::curve::straus`], [`crate::curve::msm`], [`crate::curve::dleq`] (16 cells per bit) |
//! | [`GenericSchnorrChip`], about 46,000 cells per signature | [`crate::signature::schnorr::SchnorrChip`], about 4,600 |
//!
//! Poseidon's generic-gate chip is not here: [`crate::hash::PoseidonChip`] is production code
//! (the BLS ATMS circuit hashes on it).

mod ladder;
mod rescue;
mod schnorr;

pub use ladder::GenericLadder;
pub use rescue::RescueChip;
pub use schnorr::{AssignedSignature, GenericSchnorrChip};
