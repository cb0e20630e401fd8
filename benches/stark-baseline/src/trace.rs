//! Execution trace of the aggregator AIR (see `air.rs` for the layout).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use winterfell::{math::FieldElement, TraceTable};

use crate::air::{
    num_slots, COL_A, COL_ACC, COL_B, COL_BIT, COL_CNT, COL_LEAF, COL_MK, HASH_CYCLE,
    LAMPORT_CYCLES, SLOT_LEN, TRACE_WIDTH,
};
use crate::hash::{
    absorb_pair, apply_round, digest_of, merge_init, part_init, sponge_init, Digest, Felt,
    NUM_ROUNDS, STATE_WIDTH,
};
use crate::lamport::{Message, Signature, MSG_BITS};
use crate::merkle::KeyTree;

/// What one slot of the trace checks.
#[derive(Clone, Debug)]
pub(crate) struct SlotWitness {
    /// The 252 signature parts (random filler for a key that did not sign).
    pub sigma: Vec<Digest>,
    /// The leaf checked in this slot.
    pub leaf: Digest,
    /// Its Merkle path (siblings bottom-up).
    pub path: Vec<Digest>,
    /// Whether the slot counts as a signature.
    pub signs: bool,
}

fn random_digest(rng: &mut ChaCha20Rng) -> Digest {
    [0; 4].map(|_| Felt::new(rng.gen::<u64>()))
}

fn filler_rng(slot: usize) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(0x5eed_0000 ^ slot as u64)
}

/// One witness per slot: signers' signatures, random filler for the others; every slot carries
/// its real leaf and path. Inputs must already be validated.
pub(crate) fn build_witness(tree: &KeyTree, signatures: &[(usize, Signature)]) -> Vec<SlotWitness> {
    let slots = num_slots(tree.num_keys());
    (0..slots)
        .map(|j| {
            let signed = signatures.iter().find(|(i, _)| *i == j);
            let sigma = match signed {
                Some((_, sig)) => sig.parts.clone(),
                None => {
                    let mut rng = filler_rng(j);
                    (0..MSG_BITS).map(|_| random_digest(&mut rng)).collect()
                }
            };
            SlotWitness {
                sigma,
                leaf: tree.leaf(j),
                path: tree.path(j),
                signs: signed.is_some(),
            }
        })
        .collect()
}

/// Row-major rows of one slot.
fn fill_slot(
    msg: &Message,
    depth: usize,
    j: usize,
    w: &SlotWitness,
    count_in: u64,
) -> Vec<[Felt; TRACE_WIDTH]> {
    let mut rng = filler_rng(j ^ (1 << 40));
    let mut rows = Vec::with_capacity(SLOT_LEN);

    let lane_input = |c: usize, lane: usize, rng: &mut ChaCha20Rng| {
        if c < LAMPORT_CYCLES {
            part_init(&w.sigma[2 * c + lane])
        } else {
            part_init(&random_digest(rng))
        }
    };
    let lane_hashes = |c: usize, lane: usize| c < LAMPORT_CYCLES && msg.bit(2 * c + lane);

    let mut a = lane_input(0, 0, &mut rng);
    let mut b = lane_input(0, 1, &mut rng);
    let mut acc = sponge_init(MSG_BITS);
    let mut bit = (j & 1) as u8;
    let mut mk = if bit == 1 {
        merge_init(&w.path[0], &w.leaf)
    } else {
        merge_init(&w.leaf, &w.path[0])
    };
    let mut cnt = count_in;

    let write = |rows: &mut Vec<[Felt; TRACE_WIDTH]>,
                 a: &[Felt; STATE_WIDTH],
                 b: &[Felt; STATE_WIDTH],
                 acc: &[Felt; STATE_WIDTH],
                 mk: &[Felt; STATE_WIDTH],
                 bit: u8,
                 cnt: u64| {
        let mut row = [Felt::ZERO; TRACE_WIDTH];
        row[COL_A..COL_A + STATE_WIDTH].copy_from_slice(a);
        row[COL_B..COL_B + STATE_WIDTH].copy_from_slice(b);
        row[COL_ACC..COL_ACC + STATE_WIDTH].copy_from_slice(acc);
        row[COL_MK..COL_MK + STATE_WIDTH].copy_from_slice(mk);
        row[COL_LEAF..COL_LEAF + 4].copy_from_slice(&w.leaf);
        row[COL_BIT] = Felt::from(bit);
        row[COL_CNT] = Felt::new(cnt);
        rows.push(row);
    };
    write(&mut rows, &a, &b, &acc, &mk, bit, cnt);

    for r in 0..SLOT_LEN - 1 {
        let (c, i) = (r / HASH_CYCLE, r % HASH_CYCLE);
        if i < NUM_ROUNDS {
            if lane_hashes(c, 0) {
                apply_round(&mut a, i);
            }
            if lane_hashes(c, 1) {
                apply_round(&mut b, i);
            }
            if (1..=LAMPORT_CYCLES).contains(&c) {
                apply_round(&mut acc, i);
            }
            apply_round(&mut mk, i);
        } else {
            absorb_pair(&mut acc, &digest_of(&a), &digest_of(&b));
            a = lane_input(c + 1, 0, &mut rng);
            b = lane_input(c + 1, 1, &mut rng);
            // index bits beyond the depth and siblings above the root are free: random values
            // keep every column of full degree
            let (next_bit, sibling) = if c + 1 < depth {
                (((j >> (c + 1)) & 1) as u8, w.path[c + 1])
            } else {
                (rng.gen::<bool>() as u8, random_digest(&mut rng))
            };
            bit = next_bit;
            let node = digest_of(&mk);
            mk = if bit == 1 {
                merge_init(&sibling, &node)
            } else {
                merge_init(&node, &sibling)
            };
            if r == crate::air::ACC_DONE_ROW && w.signs {
                cnt += 1;
            }
        }
        write(&mut rows, &a, &b, &acc, &mk, bit, cnt);
    }
    rows
}

/// Builds the trace for a list of slot witnesses (one per padded leaf).
pub(crate) fn build_trace(msg: &Message, slots: &[SlotWitness]) -> TraceTable<Felt> {
    let depth = slots.len().trailing_zeros() as usize;
    let mut counts = Vec::with_capacity(slots.len());
    let mut running = 0u64;
    for w in slots {
        counts.push(running);
        running += w.signs as u64;
    }

    #[cfg(feature = "concurrent")]
    let slot_rows: Vec<Vec<[Felt; TRACE_WIDTH]>> = {
        use rayon::prelude::*;
        slots
            .par_iter()
            .enumerate()
            .map(|(j, w)| fill_slot(msg, depth, j, w, counts[j]))
            .collect()
    };
    #[cfg(not(feature = "concurrent"))]
    let slot_rows: Vec<Vec<[Felt; TRACE_WIDTH]>> = slots
        .iter()
        .enumerate()
        .map(|(j, w)| fill_slot(msg, depth, j, w, counts[j]))
        .collect();

    let n = slots.len() * SLOT_LEN;
    let mut columns: Vec<Vec<Felt>> = (0..TRACE_WIDTH).map(|_| Vec::with_capacity(n)).collect();
    for rows in &slot_rows {
        for row in rows {
            for (col, v) in columns.iter_mut().zip(row.iter()) {
                col.push(*v);
            }
        }
    }
    TraceTable::init(columns)
}
