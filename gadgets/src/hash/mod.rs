//! Hash functions over the BN254 scalar field, native and in-circuit, behind one abstraction.
//!
//! Both hashes offer the same three modes, told apart by the sponge's capacity element so that no
//! input of one mode is an input of another (domain separation):
//!
//! | mode | capacity element | inputs | permutations |
//! |---|---|---|---|
//! | Merkle node `hash_node(l, r)` | `0` | `l, r` in the first two rate slots | 1 |
//! | Merkle leaf `hash_leaf(x_1..x_L)` | `L * 2^64` (the Poseidon paper's fixed-length tag, section 4.2) | absorbed `rate` at a time, the last block zero-filled | ceil(L / rate) |
//!
//! The digest is state element 0 after the last permutation. The Poseidon node mode is exactly
//! circomlib's `Poseidon([l, r])` (capacity 0, output `state[0]`), so Ethereum-side tooling
//! computes the same Merkle roots. Rescue-Prime also offers the paper's padded variable-length
//! hash ([`rescue::rescue_prime_hash`]).
//!
//! [`NativeHash`] is the off-circuit interface; [`HashInstructions`] is its in-circuit twin on
//! halo2-base's [`Context`].

use std::ops::Range;

use halo2_base::{
    gates::{GateChip, GateInstructions},
    AssignedValue, Context, QuantumCell,
};

use crate::{Fr, GadgetError};

pub mod poseidon;
pub mod poseidon_gate;
pub mod rescue;
pub mod rescue_chip;
pub mod rescue_gate;

pub use poseidon::{Poseidon, PoseidonChip};
pub use poseidon_gate::PoseidonGateChip;
pub use rescue::RescuePrime;
pub use rescue_chip::RescueChip;
pub use rescue_gate::RescueGateChip;

/// The capacity tag of a fixed-length leaf hash of `len` elements: `len * 2^64`.
pub fn leaf_tag(len: usize) -> Fr {
    Fr::from(len as u64) * Fr::from_raw([0, 1, 0, 0])
}

/// A hash over BN254 Fr used off-circuit for commitments and Merkle trees.
pub trait NativeHash: Clone + Send + Sync {
    /// Name of the hash, for reports.
    const NAME: &'static str;
    /// Two-to-one compression of a Merkle node (one permutation).
    fn hash_node(&self, left: Fr, right: Fr) -> Fr;
    /// Fixed-length hash of a leaf's contents; fails on an empty input.
    fn hash_leaf(&self, inputs: &[Fr]) -> Result<Fr, GadgetError>;
}

/// The in-circuit twin of a [`NativeHash`]: same modes, same outputs.
pub trait HashInstructions: Clone {
    /// The native hash this chip agrees with.
    type Native: NativeHash + Default;
    /// Constrains and returns the Merkle node hash of `left` and `right`.
    fn hash_node(
        &self,
        ctx: &mut Context<Fr>,
        left: AssignedValue<Fr>,
        right: AssignedValue<Fr>,
    ) -> AssignedValue<Fr>;
    /// Constrains and returns the leaf hash of `inputs`.
    ///
    /// # Panics
    /// If `inputs` is empty: the number of inputs is fixed by the circuit's shape, not by user
    /// data, so this is a programming error.
    fn hash_leaf(&self, ctx: &mut Context<Fr>, inputs: &[AssignedValue<Fr>]) -> AssignedValue<Fr>;
}

/// The leaf mode on any in-circuit permutation: `state` starts as the tagged capacity and zeros
/// (cells or constants, as the chip prefers), `inputs` are absorbed `rate.len()` at a time into
/// the `rate` words, and the digest is word 0 after the last permutation. The first block lands on
/// zeros, so it is placed, not added.
///
/// # Panics
/// If `inputs` is empty (the number of inputs is fixed by the circuit's shape).
pub(crate) fn sponge_leaf<S: Copy + Into<QuantumCell<Fr>>, const W: usize>(
    ctx: &mut Context<Fr>,
    gate: &GateChip<Fr>,
    inputs: &[AssignedValue<Fr>],
    mut state: [S; W],
    rate: Range<usize>,
    mut permute: impl FnMut(&mut Context<Fr>, [S; W]) -> [AssignedValue<Fr>; W],
    word: impl Fn(AssignedValue<Fr>) -> S,
) -> AssignedValue<Fr> {
    assert!(
        !inputs.is_empty(),
        "a Merkle leaf commits at least one element"
    );
    let mut digest = None;
    for (block, chunk) in inputs.chunks(rate.len()).enumerate() {
        for (w, x) in state[rate.clone()].iter_mut().zip(chunk) {
            *w = word(if block == 0 {
                *x
            } else {
                gate.add(ctx, *w, *x)
            });
        }
        let out = permute(ctx, state);
        digest = Some(out[0]);
        state = out.map(&word);
    }
    digest.expect("at least one block")
}
