//! Lottery indices: the verifier's order and range check, and the aggregator's choice of the
//! `k` indices of a certificate.

use std::collections::BTreeMap;

use num_bigint::BigUint;

use crate::CoreError;

/// Whether lottery value `ev` wins against target `target` (`ev < T` as integers): exactly
/// Mithril's `ev / r < phi(w)` when `T = ceil(phi(w) r)` ([`crate::eligibility`]).
pub fn wins(ev: &BigUint, target: &BigUint) -> bool {
    ev < target
}

/// Checks that `indices` are strictly increasing and below `m`, naming the first offence.
pub fn check_indices(indices: impl Iterator<Item = u64>, m: u64) -> Result<(), CoreError> {
    let mut prev: Option<u64> = None;
    for (position, j) in indices.enumerate() {
        if prev.is_some_and(|p| j <= p) {
            return Err(CoreError::IndicesNotIncreasing { position });
        }
        if j >= m {
            return Err(CoreError::IndexOutOfRange { index: j, m });
        }
        prev = Some(j);
    }
    Ok(())
}

/// The aggregator's choice: from each valid signer's won indices (by registration index),
/// greedily take the signer with the most indices not yet taken (ties to the lower registration
/// index), until `k` indices are taken; returns the `k` smallest taken indices with their
/// signer, in index order. Few signers is what the circuits pay for (a signer slot costs a
/// Merkle path and a DLEQ proof, an index slot far less).
pub fn select_indices(
    k: u64,
    won: &BTreeMap<usize, Vec<u64>>,
) -> Result<Vec<(u64, usize)>, CoreError> {
    let mut remaining = won.clone();
    let mut taken: BTreeMap<u64, usize> = BTreeMap::new();
    while (taken.len() as u64) < k {
        let fresh = |indices: &[u64]| indices.iter().filter(|j| !taken.contains_key(j)).count();
        let best = remaining
            .iter()
            .map(|(&party, indices)| (fresh(indices), std::cmp::Reverse(party)))
            .max();
        let Some((_, std::cmp::Reverse(party))) = best.filter(|&(count, _)| count > 0) else {
            return Err(CoreError::NotEnoughIndices {
                found: taken.len(),
                k,
            });
        };
        for j in remaining
            .remove(&party)
            .expect("the best party is remaining")
        {
            taken.entry(j).or_insert(party);
        }
    }
    Ok(taken.into_iter().take(k as usize).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_checks() {
        assert!(check_indices([1, 2, 5].into_iter(), 6).is_ok());
        assert_eq!(
            check_indices([1, 1].into_iter(), 6),
            Err(CoreError::IndicesNotIncreasing { position: 1 })
        );
        assert_eq!(
            check_indices([1, 6].into_iter(), 6),
            Err(CoreError::IndexOutOfRange { index: 6, m: 6 })
        );
    }

    #[test]
    fn greedy_selection() {
        let won = BTreeMap::from([(0, vec![1, 2]), (1, vec![0, 2, 3, 4]), (2, vec![5])]);
        // Signer 1 first (four fresh), then signer 0 (index 1 fresh).
        assert_eq!(
            select_indices(5, &won),
            Ok(vec![(0, 1), (1, 0), (2, 1), (3, 1), (4, 1)])
        );
        assert_eq!(select_indices(3, &won), Ok(vec![(0, 1), (2, 1), (3, 1)]));
        assert_eq!(
            select_indices(7, &won),
            Err(CoreError::NotEnoughIndices { found: 6, k: 7 })
        );
    }
}
