//! Rescue-Prime hashing as winterfell provides it (`Rp64_256`, over the 64-bit field
//! p = 2^64 - 2^32 + 1, state width 12, capacity 4, rate 8, 7 rounds, digest = state[4..8]).
//!
//! The permutation, its MDS matrix and round constants are winterfell's own
//! (`winterfell::crypto::hashers::Rp64_256`); this module fixes the three ways the aggregator
//! uses the permutation, each with its own capacity tag (domain separation), and the algebraic
//! form of one round used by the AIR.

use winterfell::crypto::hashers::Rp64_256;
use winterfell::math::{fields::f64::BaseElement, FieldElement};

/// A field element of the 64-bit STARK field.
pub type Felt = BaseElement;

/// A 4-element (256-bit) Rescue digest.
pub type Digest = [Felt; DIGEST_LEN];

/// Width of the Rescue state.
pub const STATE_WIDTH: usize = 12;
/// Number of field elements in a digest.
pub const DIGEST_LEN: usize = 4;
/// Number of rounds of the permutation (one trace row per round).
pub const NUM_ROUNDS: usize = 7;
/// Where the digest is read from (the first half of the rate).
pub const DIGEST_RANGE: core::ops::Range<usize> = 4..8;
/// The second half of the rate.
pub const RATE2_RANGE: core::ops::Range<usize> = 8..12;

/// Capacity tag of a Lamport+ part hash `pk_i = H(sk_i)` (4 input elements).
pub const PART_TAG: u64 = 4;
/// Capacity tag of a two-to-one Merkle node hash (8 input elements): this is what
/// `Rp64_256::merge` uses, so nodes equal winterfell's `merge`.
pub const MERGE_TAG: u64 = 8;

/// A zero digest.
pub const ZERO_DIGEST: Digest = [Felt::ZERO; DIGEST_LEN];

/// Applies the full Rescue-Prime permutation (winterfell's).
pub fn permute(state: &mut [Felt; STATE_WIDTH]) {
    Rp64_256::apply_permutation(state);
}

/// Applies round `round` (0..7) of the permutation (winterfell's).
pub fn apply_round(state: &mut [Felt; STATE_WIDTH], round: usize) {
    Rp64_256::apply_round(state, round);
}

/// The initial state of a part hash: `[4, 0, 0, 0 | input | 0, 0, 0, 0]`.
pub fn part_init(input: &Digest) -> [Felt; STATE_WIDTH] {
    let mut state = [Felt::ZERO; STATE_WIDTH];
    state[0] = Felt::new(PART_TAG);
    state[DIGEST_RANGE].copy_from_slice(input);
    state
}

/// Lamport+ part hash: `pk_i = H(sk_i)`.
pub fn hash_part(input: &Digest) -> Digest {
    let mut state = part_init(input);
    permute(&mut state);
    digest_of(&state)
}

/// Two-to-one node hash, equal to winterfell's `Rp64_256::merge`.
pub fn merge(left: &Digest, right: &Digest) -> Digest {
    let mut state = merge_init(left, right);
    permute(&mut state);
    digest_of(&state)
}

/// The initial state of a node hash: `[8, 0, 0, 0 | left | right]`.
pub fn merge_init(left: &Digest, right: &Digest) -> [Felt; STATE_WIDTH] {
    let mut state = [Felt::ZERO; STATE_WIDTH];
    state[0] = Felt::new(MERGE_TAG);
    state[DIGEST_RANGE].copy_from_slice(left);
    state[RATE2_RANGE].copy_from_slice(right);
    state
}

/// Sponge over a list of digests, two per permutation (absorbed by addition into the rate),
/// with the capacity tagged by the number of absorbed elements. Used for the Lamport+ public
/// key (the accumulator of the part digests). `parts.len()` must be even.
pub fn sponge_pairs(parts: &[Digest]) -> Digest {
    debug_assert!(parts.len().is_multiple_of(2));
    let mut state = sponge_init(parts.len());
    for pair in parts.chunks(2) {
        absorb_pair(&mut state, &pair[0], &pair[1]);
        permute(&mut state);
    }
    digest_of(&state)
}

/// The initial state of the key sponge: capacity tag = number of absorbed elements.
pub fn sponge_init(num_parts: usize) -> [Felt; STATE_WIDTH] {
    let mut state = [Felt::ZERO; STATE_WIDTH];
    state[0] = Felt::new((num_parts * DIGEST_LEN) as u64);
    state
}

/// Adds two digests into the rate of `state`.
pub fn absorb_pair(state: &mut [Felt; STATE_WIDTH], a: &Digest, b: &Digest) {
    for k in 0..DIGEST_LEN {
        state[DIGEST_RANGE.start + k] += a[k];
        state[RATE2_RANGE.start + k] += b[k];
    }
}

/// Reads the digest out of a state.
pub fn digest_of(state: &[Felt]) -> Digest {
    [state[4], state[5], state[6], state[7]]
}

// ALGEBRAIC ROUND (used by the AIR)
// ================================================================================================

#[inline(always)]
fn pow7<E: FieldElement>(x: E) -> E {
    let x2 = x.square();
    let x4 = x2.square();
    x4 * x2 * x
}

/// Writes the residual of one Rescue-Prime round between `cur` and `next` into `out`:
/// `MDS * cur^7 + ARK1 - (MDS^-1 * (next - ARK2))^7`, which is zero for every element exactly
/// when `next = round(cur)` (the inverse S-box is a permutation). Degree 7.
#[inline(always)]
pub fn round_residual<E: FieldElement<BaseField = Felt>>(
    cur: &[E],
    next: &[E],
    ark1: &[E],
    ark2: &[E],
    out: &mut [E; STATE_WIDTH],
) {
    let mut sbox = [E::ZERO; STATE_WIDTH];
    let mut diff = [E::ZERO; STATE_WIDTH];
    for i in 0..STATE_WIDTH {
        sbox[i] = pow7(cur[i]);
        diff[i] = next[i] - ark2[i];
    }
    for (i, o) in out.iter_mut().enumerate() {
        let mut fwd = ark1[i];
        let mut back = E::ZERO;
        for j in 0..STATE_WIDTH {
            fwd += sbox[j].mul_base(Rp64_256::MDS[i][j]);
            back += diff[j].mul_base(Rp64_256::INV_MDS[i][j]);
        }
        *o = fwd - pow7(back);
    }
}

/// Round constants as periodic columns (cycle 8; row 7 of each cycle holds zeros): first the
/// 12 columns of ARK1, then the 12 columns of ARK2.
pub fn round_constant_columns() -> Vec<Vec<Felt>> {
    let mut cols = Vec::with_capacity(2 * STATE_WIDTH);
    for ark in [&Rp64_256::ARK1, &Rp64_256::ARK2] {
        for i in 0..STATE_WIDTH {
            let mut col: Vec<Felt> = ark.iter().map(|round| round[i]).collect();
            col.push(Felt::ZERO);
            cols.push(col);
        }
    }
    cols
}

#[cfg(test)]
mod tests {
    use super::*;
    use winterfell::crypto::{hashers::Rp64_256, Hasher};

    fn d(x: u64) -> Digest {
        [
            Felt::new(x),
            Felt::new(x + 1),
            Felt::new(x + 2),
            Felt::new(x + 3),
        ]
    }

    #[test]
    fn merge_equals_winterfell_merge() {
        let (l, r) = (d(1), d(100));
        let w = Rp64_256::merge(&[l.into(), r.into()]);
        assert_eq!(merge(&l, &r), *w.as_elements());
    }

    #[test]
    fn sponge_of_one_pair_equals_merge_when_tagged_8() {
        // with 2 parts (8 elements) the sponge's tag is 8 and the state is that of merge
        let (l, r) = (d(5), d(9));
        assert_eq!(sponge_pairs(&[l, r]), merge(&l, &r));
    }

    #[test]
    fn round_residual_is_zero_exactly_on_rounds() {
        let mut state = merge_init(&d(3), &d(77));
        let ark = round_constant_columns();
        for (r, _) in ark[0].iter().enumerate().take(NUM_ROUNDS) {
            let cur = state;
            apply_round(&mut state, r);
            let a1: Vec<Felt> = (0..12).map(|i| ark[i][r]).collect();
            let a2: Vec<Felt> = (0..12).map(|i| ark[12 + i][r]).collect();
            let mut out = [Felt::ZERO; STATE_WIDTH];
            round_residual(&cur, &state, &a1, &a2, &mut out);
            assert!(out.iter().all(|v| *v == Felt::ZERO), "round {r}");
            let mut bad = state;
            bad[3] += Felt::ONE;
            round_residual(&cur, &bad, &a1, &a2, &mut out);
            assert!(out.iter().any(|v| *v != Felt::ZERO), "round {r} tampered");
        }
    }
}
