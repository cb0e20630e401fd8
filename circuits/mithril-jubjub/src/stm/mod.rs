//! The mithril-stm mode: mithril-stm 0.13.0's SNARK relation (feature `snark`) on this crate's
//! layout, so that single signatures made by mithril-stm's own signers, for a registration it
//! closed, prove here, and the statement a verifier builds from mithril-stm's
//! `AggregateVerificationKeyForSnark` (the registration root) and the 32 message bytes is the
//! proof's public input.
//!
//! | piece | module |
//! |---|---|
//! | domain tags, message element, lottery target, registration tree, unique signature, lottery, aggregator, verifier | [`native`] |
//! | shape, statement, witness | [`witness`] |
//! | the circuit | [`circuit`] |
//! | keygen, prove, verify | [`prover`] |
//!
//! What differs from this crate's own mode: the leaf holds the target and no stake, the public
//! inputs are the root and the message's two halves (no registration digest: parameters are
//! constants of the shape, `phi_f` only enters through the targets the registration computed), the
//! signature is mithril-stm's `(sigma, s, c)` with `R1 = s H + c sigma`, `R2 = s G + c vk`, and an
//! index wins when `ev <= T` with `ev` prefixed by `Poseidon(LOTT_DST, root, message)`.

pub mod chain;
pub mod circuit;
pub mod native;
pub mod prover;
pub mod witness;

pub use circuit::StmCircuit;
pub use witness::{StmInstance, StmShape, StmWitness};
