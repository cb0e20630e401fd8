//! The registration's curve-independent checks and its tree depth.

use std::{collections::HashSet, hash::Hash};

use crate::CoreError;

/// The total stake of `entries` (a key identity and a stake each, in registration order):
/// refuses an empty list, a zero stake, a key seen before and a total above `u64::MAX`, naming
/// the first offending entry.
pub fn total_stake<K: Eq + Hash>(entries: &[(K, u64)]) -> Result<u64, CoreError> {
    if entries.is_empty() {
        return Err(CoreError::EmptyRegistration);
    }
    let mut seen = HashSet::new();
    let mut total: u64 = 0;
    for (i, (key, stake)) in entries.iter().enumerate() {
        if *stake == 0 {
            return Err(CoreError::ZeroStake(i));
        }
        if !seen.insert(key) {
            return Err(CoreError::DuplicateKey(i));
        }
        total = total.checked_add(*stake).ok_or(CoreError::StakeOverflow)?;
    }
    Ok(total)
}

/// The smallest Merkle depth holding `parties` leaves (at least 1), as both backends' trees use.
pub fn depth(parties: usize) -> usize {
    (usize::BITS - parties.saturating_sub(1).leading_zeros()).max(1) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_and_depth() {
        assert_eq!(total_stake(&[(1, 5), (2, 7)]), Ok(12));
        assert_eq!(total_stake::<u8>(&[]), Err(CoreError::EmptyRegistration));
        assert_eq!(total_stake(&[(1, 5), (2, 0)]), Err(CoreError::ZeroStake(1)));
        assert_eq!(
            total_stake(&[(1, 5), (1, 3)]),
            Err(CoreError::DuplicateKey(1))
        );
        assert_eq!(
            total_stake(&[(1, u64::MAX), (2, 1)]),
            Err(CoreError::StakeOverflow)
        );
        assert_eq!(
            [1, 2, 3, 4, 5, 8, 9, 3000].map(depth),
            [1, 1, 2, 2, 3, 3, 4, 12]
        );
    }
}
