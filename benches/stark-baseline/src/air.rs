//! The AIR: t-of-N Lamport+ signatures on one message under keys committed in a Merkle root.
//!
//! The trace has one *slot* of 1024 rows (128 hash cycles of 8 rows: 7 Rescue rounds and one
//! transfer row) per leaf of the padded tree; slot `j` checks leaf `j`. Columns:
//!
//! | columns | name | content |
//! |---|---|---|
//! | 0..12 | lane A | Rescue state hashing `sigma_{2c}` in cycle `c` (identity where the bit is 0) |
//! | 12..24 | lane B | same for `sigma_{2c+1}` |
//! | 24..36 | acc | the key sponge, absorbing lanes A and B after each cycle |
//! | 36..48 | merkle | the Merkle path of leaf `j`, one level per cycle |
//! | 48..52 | leaf | the leaf `L_j`, constant in the slot |
//! | 52 | bit | the index bit of the current Merkle level |
//! | 53 | cnt | running count of valid signatures |
//!
//! See `README.md` for the constraint list and degrees.

use winterfell::{
    math::{FieldElement, ToElements},
    Air, AirContext, Assertion, EvaluationFrame, ProofOptions, TraceInfo,
    TransitionConstraintDegree,
};

use crate::hash::{
    round_constant_columns, round_residual, Digest, Felt, DIGEST_LEN, MERGE_TAG, NUM_ROUNDS,
    PART_TAG, STATE_WIDTH,
};
use crate::lamport::{Message, MSG_BITS};

// LAYOUT
// ================================================================================================

/// Rows per hash cycle (7 rounds + 1 transfer row).
pub const HASH_CYCLE: usize = NUM_ROUNDS + 1;
/// Hash cycles per slot.
pub const SLOT_CYCLES: usize = 128;
/// Rows per slot (one leaf of the tree).
pub const SLOT_LEN: usize = HASH_CYCLE * SLOT_CYCLES;
/// Cycles in which lanes A and B hash signature parts (two message bits per cycle).
pub const LAMPORT_CYCLES: usize = MSG_BITS / 2;
/// The row of a slot at which the key sponge holds the Lamport+ public key.
pub const ACC_DONE_ROW: usize = HASH_CYCLE * LAMPORT_CYCLES + NUM_ROUNDS;
/// Number of elements the key sponge absorbs (its capacity tag).
pub const SPONGE_TAG: u64 = (MSG_BITS * DIGEST_LEN) as u64;

/// First column of lane A.
pub const COL_A: usize = 0;
/// First column of lane B.
pub const COL_B: usize = COL_A + STATE_WIDTH;
/// First column of the key sponge.
pub const COL_ACC: usize = COL_B + STATE_WIDTH;
/// First column of the Merkle hasher.
pub const COL_MK: usize = COL_ACC + STATE_WIDTH;
/// First of the four leaf columns.
pub const COL_LEAF: usize = COL_MK + STATE_WIDTH;
/// The Merkle index bit column.
pub const COL_BIT: usize = COL_LEAF + DIGEST_LEN;
/// The signature counter column.
pub const COL_CNT: usize = COL_BIT + 1;
/// Trace width.
pub const TRACE_WIDTH: usize = COL_CNT + 1;

// periodic columns
const P_HASH: usize = 0; // 1 on round rows
const P_ARK: usize = 1; // 24 columns: ARK1 then ARK2
const P_MA: usize = P_ARK + 2 * STATE_WIDTH; // message bit of lane A
const P_MB: usize = P_MA + 1; // message bit of lane B
const P_ACC: usize = P_MB + 1; // 1 in cycles where the key sponge permutes
const P_TR: usize = P_ACC + 1; // 1 on transfer rows except the slot's last row
const P_END: usize = P_TR + 1; // 1 on the slot's last row
const P_START: usize = P_END + 1; // 1 on the slot's first row
const P_DONE: usize = P_START + 1; // 1 on ACC_DONE_ROW

// constraint indices
/// First constraint of lane A (12 constraints).
pub const C_A: usize = 0;
/// First constraint of lane B (12).
pub const C_B: usize = C_A + STATE_WIDTH;
/// First constraint of the key sponge (12).
pub const C_ACC: usize = C_B + STATE_WIDTH;
/// First constraint of the Merkle hasher (12).
pub const C_MK: usize = C_ACC + STATE_WIDTH;
/// First of the 4 constraints placing the leaf in the first Merkle input (slot row 0).
pub const C_LOAD: usize = C_MK + STATE_WIDTH;
/// First of the 4 constraints keeping the leaf constant in a slot.
pub const C_LEAF: usize = C_LOAD + DIGEST_LEN;
/// Index bit constant within a hash cycle.
pub const C_BIT_COPY: usize = C_LEAF + DIGEST_LEN;
/// Index bit is binary.
pub const C_BIT_BIN: usize = C_BIT_COPY + 1;
/// Counter constant except at `ACC_DONE_ROW`.
pub const C_CNT_COPY: usize = C_BIT_BIN + 1;
/// Counter increment at `ACC_DONE_ROW` is binary.
pub const C_CNT_BIN: usize = C_CNT_COPY + 1;
/// First of the 4 constraints: an increment requires the sponge output to equal the leaf.
pub const C_SIG: usize = C_CNT_BIN + 1;
/// Number of transition constraints.
pub const NUM_CONSTRAINTS: usize = C_SIG + DIGEST_LEN;

/// Number of slots (padded leaves) for N keys.
pub fn num_slots(num_keys: usize) -> usize {
    num_keys.next_power_of_two()
}

/// Trace length for N keys.
pub fn trace_length(num_keys: usize) -> usize {
    num_slots(num_keys) * SLOT_LEN
}

// PUBLIC INPUTS
// ================================================================================================

/// What the verifier knows: the root, the message, N and t (not the keys).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicInputs {
    /// Merkle root of the committee's Lamport+ public keys.
    pub root: Digest,
    /// The signed message.
    pub message: Message,
    /// N, the committee size.
    pub num_keys: usize,
    /// t, the number of distinct committee keys that signed.
    pub threshold: usize,
}

impl ToElements<Felt> for PublicInputs {
    fn to_elements(&self) -> Vec<Felt> {
        let mut v = self.root.to_vec();
        v.extend_from_slice(&self.message.elements());
        v.push(Felt::new(self.num_keys as u64));
        v.push(Felt::new(self.threshold as u64));
        v
    }
}

// AIR
// ================================================================================================

/// The aggregator's AIR.
pub struct AggregateAir {
    context: AirContext<Felt>,
    inputs: PublicInputs,
    depth: usize,
}

impl AggregateAir {
    fn lane_bits(&self, lane: usize) -> Vec<Felt> {
        (0..SLOT_LEN)
            .map(|row| {
                let c = row / HASH_CYCLE;
                let bit = c < LAMPORT_CYCLES && self.inputs.message.bit(2 * c + lane);
                Felt::from(bit as u8)
            })
            .collect()
    }
}

fn flag_column(len: usize, f: impl Fn(usize) -> bool) -> Vec<Felt> {
    (0..len).map(|r| Felt::from(f(r) as u8)).collect()
}

impl Air for AggregateAir {
    type BaseField = Felt;
    type PublicInputs = PublicInputs;

    fn new(trace_info: TraceInfo, inputs: PublicInputs, options: ProofOptions) -> Self {
        let depth = num_slots(inputs.num_keys).trailing_zeros() as usize;
        let cycles = || vec![HASH_CYCLE, SLOT_LEN];
        // a lane whose message bits are all zero only copies (its Rescue term vanishes)
        let lane_degree = |lane: usize| {
            let any_one = (0..LAMPORT_CYCLES).any(|c| inputs.message.bit(2 * c + lane));
            if any_one {
                TransitionConstraintDegree::with_cycles(7, cycles())
            } else {
                TransitionConstraintDegree::with_cycles(1, vec![HASH_CYCLE])
            }
        };
        let mut degrees = Vec::with_capacity(NUM_CONSTRAINTS);
        for lane in 0..2 {
            degrees.extend((0..STATE_WIDTH).map(|_| lane_degree(lane)));
        }
        degrees
            .extend((0..STATE_WIDTH).map(|_| TransitionConstraintDegree::with_cycles(7, cycles())));
        degrees.extend(
            (0..STATE_WIDTH).map(|_| TransitionConstraintDegree::with_cycles(7, vec![HASH_CYCLE])),
        );
        degrees.extend(
            (0..DIGEST_LEN).map(|_| TransitionConstraintDegree::with_cycles(2, vec![SLOT_LEN])),
        );
        degrees.extend(
            (0..DIGEST_LEN).map(|_| TransitionConstraintDegree::with_cycles(1, vec![SLOT_LEN])),
        );
        degrees.push(TransitionConstraintDegree::with_cycles(1, vec![HASH_CYCLE]));
        degrees.push(TransitionConstraintDegree::new(2));
        degrees.push(TransitionConstraintDegree::with_cycles(1, vec![SLOT_LEN]));
        degrees.push(TransitionConstraintDegree::with_cycles(2, vec![SLOT_LEN]));
        degrees.extend(
            (0..DIGEST_LEN).map(|_| TransitionConstraintDegree::with_cycles(2, vec![SLOT_LEN])),
        );
        debug_assert_eq!(degrees.len(), NUM_CONSTRAINTS);

        let num_assertions = 2 * 8 + STATE_WIDTH + 2 * DIGEST_LEN + depth + 3;
        let context = AirContext::new(trace_info, degrees, num_assertions, options);
        Self {
            context,
            inputs,
            depth,
        }
    }

    fn context(&self) -> &AirContext<Felt> {
        &self.context
    }

    fn evaluate_transition<E: FieldElement<BaseField = Felt>>(
        &self,
        frame: &EvaluationFrame<E>,
        periodic: &[E],
        result: &mut [E],
    ) {
        let cur = frame.current();
        let next = frame.next();
        let one = E::ONE;
        let hash = periodic[P_HASH];
        let ark1 = &periodic[P_ARK..P_ARK + STATE_WIDTH];
        let ark2 = &periodic[P_ARK + STATE_WIDTH..P_ARK + 2 * STATE_WIDTH];
        let acc_on = periodic[P_ACC];
        let transfer = periodic[P_TR];
        let not_end = one - periodic[P_END];
        let start = periodic[P_START];
        let done = periodic[P_DONE];
        let mut res = [E::ZERO; STATE_WIDTH];

        // lanes A and B: a Rescue round where the message bit is 1, a copy where it is 0 (so the
        // lane ends the cycle holding H(sigma) or sigma); free on transfer rows (new inputs,
        // whose capacity and padding are fixed by periodic assertions)
        for (col, m, c0) in [(COL_A, periodic[P_MA], C_A), (COL_B, periodic[P_MB], C_B)] {
            let (s, t) = (&cur[col..col + STATE_WIDTH], &next[col..col + STATE_WIDTH]);
            round_residual(s, t, ark1, ark2, &mut res);
            for i in 0..STATE_WIDTH {
                result[c0 + i] = hash * (m * res[i] + (one - m) * (t[i] - s[i]));
            }
        }

        // key sponge: rounds in its active cycles, copies otherwise; on transfer rows it adds
        // the digests of lanes A and B into its rate
        {
            let (s, t) = (
                &cur[COL_ACC..COL_ACC + STATE_WIDTH],
                &next[COL_ACC..COL_ACC + STATE_WIDTH],
            );
            round_residual(s, t, ark1, ark2, &mut res);
            for i in 0..STATE_WIDTH {
                let absorbed = match i {
                    4..=7 => cur[COL_A + i],
                    8..=11 => cur[COL_B + i - 4],
                    _ => E::ZERO,
                };
                result[C_ACC + i] = hash * (acc_on * res[i] + (one - acc_on) * (t[i] - s[i]))
                    + transfer * (t[i] - s[i] - absorbed);
            }
        }

        // Merkle hasher: a round on every round row; on transfer rows the next node input is
        // (digest, sibling) or (sibling, digest) by the next index bit, with the capacity reset
        {
            let (s, t) = (
                &cur[COL_MK..COL_MK + STATE_WIDTH],
                &next[COL_MK..COL_MK + STATE_WIDTH],
            );
            round_residual(s, t, ark1, ark2, &mut res);
            let b_next = next[COL_BIT];
            for i in 0..DIGEST_LEN {
                let tag = if i == 0 {
                    E::from(Felt::new(MERGE_TAG))
                } else {
                    E::ZERO
                };
                result[C_MK + i] = hash * res[i] + transfer * (t[i] - tag);
            }
            for k in 0..DIGEST_LEN {
                let digest = s[4 + k];
                let placed = (one - b_next) * (t[4 + k] - digest) + b_next * (t[8 + k] - digest);
                result[C_MK + 4 + k] = hash * res[4 + k] + transfer * placed;
                result[C_MK + 8 + k] = hash * res[8 + k];
            }
        }

        // first Merkle input of the slot holds the leaf, on the side given by bit 0
        let b = cur[COL_BIT];
        for k in 0..DIGEST_LEN {
            let leaf = cur[COL_LEAF + k];
            let placed =
                (one - b) * (cur[COL_MK + 4 + k] - leaf) + b * (cur[COL_MK + 8 + k] - leaf);
            result[C_LOAD + k] = start * placed;
            result[C_LEAF + k] = not_end * (next[COL_LEAF + k] - leaf);
        }

        // index bit: constant in a cycle, binary
        result[C_BIT_COPY] = hash * (next[COL_BIT] - b);
        result[C_BIT_BIN] = b * b - b;

        // counter: changes only at ACC_DONE_ROW, by 0 or 1, and by 1 only if the key sponge
        // (the Lamport+ public key recomputed from the signature) equals the leaf
        let delta = next[COL_CNT] - cur[COL_CNT];
        result[C_CNT_COPY] = (one - done) * delta;
        result[C_CNT_BIN] = done * (delta * delta - delta);
        for k in 0..DIGEST_LEN {
            result[C_SIG + k] = done * delta * (cur[COL_ACC + 4 + k] - cur[COL_LEAF + k]);
        }
    }

    fn get_assertions(&self) -> Vec<Assertion<Felt>> {
        let mut out = Vec::new();
        // every lane input: capacity [4, 0, 0, 0], second half of the rate zero
        for col in [COL_A, COL_B] {
            for i in (0..4).chain(8..12) {
                let v = if i == 0 {
                    Felt::new(PART_TAG)
                } else {
                    Felt::ZERO
                };
                out.push(Assertion::periodic(col + i, 0, HASH_CYCLE, v));
            }
        }
        // key sponge starts every slot at [1008, 0, ..., 0]
        for i in 0..STATE_WIDTH {
            let v = if i == 0 {
                Felt::new(SPONGE_TAG)
            } else {
                Felt::ZERO
            };
            out.push(Assertion::periodic(COL_ACC + i, 0, SLOT_LEN, v));
        }
        // the first Merkle input of every slot has the merge capacity
        for i in 0..DIGEST_LEN {
            let v = if i == 0 {
                Felt::new(MERGE_TAG)
            } else {
                Felt::ZERO
            };
            out.push(Assertion::periodic(COL_MK + i, 0, SLOT_LEN, v));
        }
        // after `depth` levels the Merkle hasher holds the root, in every slot
        let root_row = HASH_CYCLE * self.depth - 1;
        for k in 0..DIGEST_LEN {
            out.push(Assertion::periodic(
                COL_MK + 4 + k,
                root_row,
                SLOT_LEN,
                self.inputs.root[k],
            ));
        }
        // slot j authenticates leaf j: its index bits are those of j
        let slots = 1usize << self.depth;
        for level in 0..self.depth {
            let bits = (0..slots)
                .map(|j| Felt::from(((j >> level) & 1) as u8))
                .collect();
            out.push(Assertion::sequence(
                COL_BIT,
                HASH_CYCLE * level,
                SLOT_LEN,
                bits,
            ));
        }
        // the count starts at 0, reaches t after the last real key, and stays t to the end
        let t = Felt::new(self.inputs.threshold as u64);
        let after_last_key = (self.inputs.num_keys - 1) * SLOT_LEN + ACC_DONE_ROW + 1;
        out.push(Assertion::single(COL_CNT, 0, Felt::ZERO));
        out.push(Assertion::single(COL_CNT, after_last_key, t));
        out.push(Assertion::single(COL_CNT, self.trace_length() - 1, t));
        out
    }

    fn get_periodic_column_values(&self) -> Vec<Vec<Felt>> {
        let mut cols = vec![flag_column(HASH_CYCLE, |r| r < NUM_ROUNDS)];
        cols.extend(round_constant_columns());
        cols.push(self.lane_bits(0));
        cols.push(self.lane_bits(1));
        cols.push(flag_column(SLOT_LEN, |r| {
            (1..=LAMPORT_CYCLES).contains(&(r / HASH_CYCLE))
        }));
        cols.push(flag_column(SLOT_LEN, |r| {
            r % HASH_CYCLE == NUM_ROUNDS && r != SLOT_LEN - 1
        }));
        cols.push(flag_column(SLOT_LEN, |r| r == SLOT_LEN - 1));
        cols.push(flag_column(SLOT_LEN, |r| r == 0));
        cols.push(flag_column(SLOT_LEN, |r| r == ACC_DONE_ROW));
        cols
    }
}
