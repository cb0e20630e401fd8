//! Reference implementations on halo2-base's generic gate, kept only as independent cross-checks
//! of the custom-gate gadgets the circuits use. **No circuit uses anything here**; the tests run
//! both versions on the same inputs and compare them with the native twins.
//!
//! | reference (generic gate) | production (custom gate) |
//! |---|---|
//! | [`GenericLadder`] on [`crate::curve::GrumpkinChip`]: `k P`, `k G`, multi-scalar | [`crate::curve::glv`] (128 rows of 13 cells), [`crate::curve::straus`], [`crate::curve::msm`], [`crate::curve::dleq`] (16 cells per bit) |
//! | [`GenericSchnorrChip`], about 46,000 cells per signature | [`crate::signature::schnorr::SchnorrChip`], about 2,500 |
//!
//! The generic-gate hash chips are not here: [`crate::hash::PoseidonChip`] and
//! [`crate::hash::RescueChip`] are production code for circuits without the bank (the
//! aggregation circuit) and the cross-checks of the round gates.

mod ladder;
mod schnorr;

pub use ladder::GenericLadder;
pub use schnorr::{AssignedSignature, GenericSchnorrChip};
