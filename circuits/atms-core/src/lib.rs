//! The curve-independent parts of the Schnorr ATMS, shared by the BN254/Grumpkin circuit
//! (`schnorr-atms`) and the BLS12-381/Jubjub circuit (`schnorr-atms-jubjub`): the commitment
//! modes, the Merkle depth of a committee, mapping signatures to committee members, assigning
//! members to circuit slots, and the checks of a shape, a statement and a certificate that both
//! witnesses make ([`CheckError`], [`fill_slots`]), the public statement over either curve
//! ([`AtmsInstance`], [`AtmsCurve`]) and the prover's witness ([`AtmsWitness`],
//! [`AtmsProver`]). Nothing here depends on a curve, a field or a hash: the key and signature
//! types and the verification function are the caller's.
#![deny(missing_docs)]

mod statement;
mod witness;

pub use statement::{
    check_committee_size, check_shape, check_threshold, check_trusted, fill_slots, slot_count,
    AtmsCurve, AtmsInstance, CheckError,
};
pub use witness::{AtmsProver, AtmsWitness};

/// How the committee is committed to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CommitmentMode {
    /// One hash over every key; one circuit slot per member.
    Flat,
    /// A Merkle root; `slots` signer slots with paths, indices strictly increasing.
    Merkle {
        /// Number of signer slots in the circuit.
        slots: usize,
    },
}

/// Depth of the Merkle tree of a committee of `n` members (at least 1).
pub fn committee_depth(n: usize) -> usize {
    (usize::BITS - n.saturating_sub(1).leading_zeros()).max(1) as usize
}

/// Maps each `(key, signature)` to its member's committee index, sorted by index: refuses a
/// key outside `committee`, a signature `verifies` refuses, and a member signing twice (checked
/// in that order per input, naming the first offending one).
pub fn index_signatures<K: PartialEq, S: Clone>(
    committee: &[K],
    signatures: &[(K, S)],
    verifies: impl Fn(&K, &S) -> bool,
) -> Result<Vec<(usize, S)>, CheckError> {
    let mut indexed: Vec<(usize, S)> = Vec::with_capacity(signatures.len());
    for (pos, (key, sig)) in signatures.iter().enumerate() {
        let index = committee
            .iter()
            .position(|k| k == key)
            .ok_or(CheckError::NotInCommittee(pos))?;
        if !verifies(key, sig) {
            return Err(CheckError::InvalidSignature(pos));
        }
        if indexed.iter().any(|(i, _)| *i == index) {
            return Err(CheckError::DuplicateSigner(index));
        }
        indexed.push((index, sig.clone()));
    }
    indexed.sort_by_key(|(i, _)| *i);
    Ok(indexed)
}

/// The committee indices of a circuit's slots: every member in flat mode; in Merkle mode the
/// signers (`signers`, strictly increasing) filled up with the first non-signers to `slots`,
/// sorted, so the indices are strictly increasing as the circuit requires. `None` when the
/// signers do not fit the Merkle slots (or the committee).
pub fn slot_indices(mode: CommitmentMode, n: usize, signers: &[usize]) -> Option<Vec<usize>> {
    match mode {
        CommitmentMode::Flat => Some((0..n).collect()),
        CommitmentMode::Merkle { slots } => {
            if signers.len() > slots || slots > n {
                return None;
            }
            let mut indices = signers.to_vec();
            let mut spare = (0..n).filter(|i| !signers.contains(i));
            while indices.len() < slots {
                indices.push(spare.next()?);
            }
            indices.sort_unstable();
            Some(indices)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_is_the_ceiling_log_at_least_one() {
        let cases = [
            (1, 1),
            (2, 1),
            (3, 2),
            (4, 2),
            (5, 3),
            (8, 3),
            (9, 4),
            (102, 7),
        ];
        for (n, depth) in cases {
            assert_eq!(committee_depth(n), depth, "n = {n}");
        }
    }

    #[test]
    fn signatures_map_to_sorted_distinct_members() {
        let committee = ["a", "b", "c"];
        let ok = |_: &&str, s: &u32| *s != 0;
        assert_eq!(
            index_signatures(&committee, &[("c", 3), ("a", 1)], ok),
            Ok(vec![(0, 1), (2, 3)])
        );
        assert_eq!(
            index_signatures(&committee, &[("a", 1), ("z", 1)], ok),
            Err(CheckError::NotInCommittee(1))
        );
        assert_eq!(
            index_signatures(&committee, &[("b", 0)], ok),
            Err(CheckError::InvalidSignature(0))
        );
        assert_eq!(
            index_signatures(&committee, &[("b", 2), ("b", 2)], ok),
            Err(CheckError::DuplicateSigner(1))
        );
    }

    #[test]
    fn merkle_slots_hold_signers_then_spare_members_in_order() {
        let merkle = |slots| CommitmentMode::Merkle { slots };
        assert_eq!(
            slot_indices(CommitmentMode::Flat, 3, &[1]),
            Some(vec![0, 1, 2])
        );
        assert_eq!(slot_indices(merkle(3), 5, &[1, 4]), Some(vec![0, 1, 4]));
        assert_eq!(slot_indices(merkle(2), 5, &[]), Some(vec![0, 1]));
        assert_eq!(slot_indices(merkle(1), 5, &[1, 4]), None);
        assert_eq!(slot_indices(merkle(6), 5, &[]), None);
    }

    #[test]
    fn commitment_mode_serialises_as_before() {
        // Key files written by `tms` hold this form: it must not change.
        let text = |m| serde_json::to_string(&m).unwrap();
        assert_eq!(text(CommitmentMode::Flat), r#""flat""#);
        assert_eq!(
            text(CommitmentMode::Merkle { slots: 2 }),
            r#"{"merkle":{"slots":2}}"#
        );
    }
}
