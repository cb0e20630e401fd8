//! Schnorr ATMS committees proved in chunks, joined by one aggregation proof.
//!
//! A committee's Merkle tree (Rescue-Prime, depth `d`) splits at level `d - p` into `P = 2^p`
//! subtrees of consecutive members (`schnorr_atms::Committee::chunks`). Chunk `i` is an ordinary
//! Schnorr ATMS proof in Merkle mode over its sub-committee, public `[root_i, message, t_i]`: at
//! least `t_i` distinct members of subtree `i` signed the message. The join ([`CommitteeChunks`])
//! verifies the `P` chunk proofs and constrains
//!
//! - every chunk's message to be the first one's;
//! - the chunk roots, hashed pairwise in order with the committee tree's node hash, to give the
//!   committee root: each subtree is used exactly once and in its place, so a chunk of another
//!   committee, a chunk used twice or in the wrong place changes the root;
//! - `t <= t_0 + ... + t_{P-1}` (a 64-bit `t`; each `t_i` is below `2^b` in its own circuit, so
//!   the sum cannot wrap). Subtrees are disjoint, so the chunks' signers are distinct members.
//!
//! It exposes `[committee root, message, t]` after the accumulator: the unchunked circuit's
//! statement, which the verifier builds from the committee (or the root a contract stores), the
//! message bytes and the threshold, as for one proof.
//!
//! A committee too large for one join is joined in a tree: [`JoinedChunks`] joins join proofs
//! (each exposing `[subtree root, message, t_sub]` after its accumulator) exactly as
//! [`CommitteeChunks`] joins chunk proofs; a lower join claims the sum of its chunks'
//! thresholds as its `t_sub`.
//!
//! A join of one input (a *wrap*) passes its root through: it re-proves one chunk proof (or one
//! join proof) as an aggregation proof of a few columns at a larger k. The joins above then
//! verify those few columns rather than the chunk circuit's wide bank, which keeps their cells,
//! and so their memory, down (see [`check_join_inputs`]).
//!
//! The join hashes on [`RescueChip`] (halo2-base's generic gate: the aggregation circuit has no
//! custom-gate bank), `P - 1` permutations of about 2,250 cells.

use halo2_base::{
    gates::{GateChip, GateInstructions},
    AssignedValue, Context,
};
use tms_gadgets::{
    hash::{HashInstructions, NativeHash, RescueChip, RescuePrime},
    Fr,
};

use crate::{snark::Statement, AggregationError, ACCUMULATOR_LIMBS};

/// Public inputs of a chunk proof (a Schnorr ATMS proof): root, message, threshold.
pub const CHUNK_INPUTS: usize = 3;

/// Bits of the joined threshold: a `u64`.
const THRESHOLD_BITS: usize = 64;

/// Bits of `t_0 + ... + t_{P-1} - t`. The sum is far below `2^64` (each `t_i` is below the
/// number of slots of its chunk), so an honest margin fits; a `t` above the sum makes the
/// difference wrap to about `r`, which does not.
const MARGIN_BITS: usize = 64;

/// The join of `P` chunk proofs: the committee root, the common message, and at least
/// `threshold` signers in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CommitteeChunks {
    /// The threshold `t` the joined statement claims.
    pub threshold: u64,
}

impl Statement for CommitteeChunks {
    fn constrain(
        &self,
        ctx: &mut Context<Fr>,
        inner: &[Vec<AssignedValue<Fr>>],
    ) -> Result<Vec<AssignedValue<Fr>>, AggregationError> {
        join(ctx, inner, 0, "chunk", self.threshold)
    }
}

/// The join of `P` join proofs (a level of a join tree): the same constraints as
/// [`CommitteeChunks`] on the statements after each inner proof's accumulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JoinedChunks {
    /// The threshold `t` the joined statement claims.
    pub threshold: u64,
}

impl Statement for JoinedChunks {
    fn constrain(
        &self,
        ctx: &mut Context<Fr>,
        inner: &[Vec<AssignedValue<Fr>>],
    ) -> Result<Vec<AssignedValue<Fr>>, AggregationError> {
        join(ctx, inner, ACCUMULATOR_LIMBS, "join", self.threshold)
    }
}

/// The join's constraints over `[root, message, threshold]` at `offset` of each inner proof's
/// public inputs.
fn join(
    ctx: &mut Context<Fr>,
    inner: &[Vec<AssignedValue<Fr>>],
    offset: usize,
    what: &str,
    threshold: u64,
) -> Result<Vec<AssignedValue<Fr>>, AggregationError> {
    check_join_inputs(inner.len())?;
    if let Some(index) = inner.iter().position(|i| i.len() != offset + CHUNK_INPUTS) {
        return Err(AggregationError::Inner {
            index,
            reason: format!("a {what} proof has {} public inputs", offset + CHUNK_INPUTS),
        });
    }
    let statements: Vec<&[AssignedValue<Fr>]> = inner.iter().map(|i| &i[offset..]).collect();
    let gate = GateChip::<Fr>::default();
    let message = statements[0][1];
    for statement in &statements[1..] {
        ctx.constrain_equal(&statement[1], &message);
    }

    let rescue = RescueChip::new();
    let mut level: Vec<_> = statements.iter().map(|statement| statement[0]).collect();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|pair| rescue.hash_node(ctx, pair[0], pair[1]))
            .collect();
    }

    let threshold = ctx.load_witness(Fr::from(threshold));
    gate.num_to_bits(ctx, threshold, THRESHOLD_BITS);
    let total = gate.sum(ctx, statements.iter().map(|statement| statement[2]));
    let margin = gate.sub(ctx, total, threshold);
    gate.num_to_bits(ctx, margin, MARGIN_BITS);
    Ok(vec![level[0], message, threshold])
}

/// Refuses chunk counts a committee does not split into: a power of two, at least 2.
pub fn check_chunk_count(count: usize) -> Result<(), AggregationError> {
    if count < 2 || !count.is_power_of_two() {
        return Err(AggregationError::Input(format!(
            "{count} chunks: a committee splits into a power of two, at least 2"
        )));
    }
    Ok(())
}

/// Refuses input counts a join does not take: a power of two, at least 1. One input is a wrap:
/// its root, message and threshold pass through (the threshold may only go down), so a wrap of
/// subtree `g` proves what its input proves about subtree `g`, in an aggregation proof's shape.
pub fn check_join_inputs(count: usize) -> Result<(), AggregationError> {
    if count == 0 || !count.is_power_of_two() {
        return Err(AggregationError::Input(format!(
            "{count} inputs: a join takes a power of two, at least 1 (one input: a wrap)"
        )));
    }
    Ok(())
}

/// The native twin of the join's root: the chunk roots hashed pairwise in order (Rescue-Prime,
/// the committee tree's node hash); one root is its own join.
pub fn join_roots(roots: &[Fr]) -> Result<Fr, AggregationError> {
    check_join_inputs(roots.len())?;
    let mut level = roots.to_vec();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|pair| RescuePrime.hash_node(pair[0], pair[1]))
            .collect();
    }
    Ok(level[0])
}
