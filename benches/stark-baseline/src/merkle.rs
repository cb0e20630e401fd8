//! The committee's Merkle tree of Lamport+ public keys (Rescue-Prime `merge` nodes, the tree
//! winterfell's `MerkleTree<Rp64_256>` would build). N keys are padded to the next power of two
//! with zero leaves; a zero leaf cannot sign (it would need a Lamport+ key whose accumulator is
//! the zero digest, a Rescue preimage). Keys must be distinct (a repeated key would let one
//! signature count twice).

use crate::error::Error;
use crate::hash::{merge, Digest, ZERO_DIGEST};
use crate::lamport::PublicKey;

/// Smallest committee.
pub const MIN_KEYS: usize = 2;
/// Largest committee (tree depth 16): keeps the trace below 2^26 rows.
pub const MAX_KEYS: usize = 1 << 16;

/// A Merkle tree over the public keys of a committee.
#[derive(Clone, Debug)]
pub struct KeyTree {
    num_keys: usize,
    /// `levels[0]` are the (padded) leaves, the last level is the root.
    levels: Vec<Vec<Digest>>,
}

impl KeyTree {
    /// Builds the tree over `keys` (N = `keys.len()`, 2 <= N <= 2^16).
    pub fn new(keys: &[PublicKey]) -> Result<Self, Error> {
        check_num_keys(keys.len())?;
        let mut seen = std::collections::BTreeMap::new();
        for (i, k) in keys.iter().enumerate() {
            let id = k.0.map(|e| e.as_int());
            if let Some(first) = seen.insert(id, i) {
                return Err(Error::DuplicateKey { first, second: i });
            }
        }
        let width = keys.len().next_power_of_two();
        let mut leaves: Vec<Digest> = keys.iter().map(|k| k.0).collect();
        leaves.resize(width, ZERO_DIGEST);
        let mut levels = vec![leaves];
        while levels.last().map_or(0, Vec::len) > 1 {
            let prev = levels.last().expect("non-empty");
            let next = prev.chunks(2).map(|p| merge(&p[0], &p[1])).collect();
            levels.push(next);
        }
        Ok(Self {
            num_keys: keys.len(),
            levels,
        })
    }

    /// The root (public input).
    pub fn root(&self) -> Digest {
        self.levels.last().expect("non-empty")[0]
    }

    /// N, the number of keys.
    pub fn num_keys(&self) -> usize {
        self.num_keys
    }

    /// Depth d of the tree (2^d leaves).
    pub fn depth(&self) -> usize {
        self.levels.len() - 1
    }

    /// Leaf `index` of the padded tree (zero digest beyond N).
    pub fn leaf(&self, index: usize) -> Digest {
        self.levels[0][index]
    }

    /// The siblings of leaf `index`, bottom-up.
    pub fn path(&self, index: usize) -> Vec<Digest> {
        (0..self.depth())
            .map(|level| self.levels[level][(index >> level) ^ 1])
            .collect()
    }
}

/// Checks 2 <= n <= 2^16.
pub fn check_num_keys(n: usize) -> Result<(), Error> {
    if !(MIN_KEYS..=MAX_KEYS).contains(&n) {
        return Err(Error::NumKeysOutOfRange {
            n,
            min: MIN_KEYS,
            max: MAX_KEYS,
        });
    }
    Ok(())
}

/// Recomputes the root from a leaf, its index and its path.
pub fn root_from_path(leaf: &Digest, index: usize, path: &[Digest]) -> Digest {
    let mut node = *leaf;
    for (level, sib) in path.iter().enumerate() {
        node = if (index >> level) & 1 == 0 {
            merge(&node, sib)
        } else {
            merge(sib, &node)
        };
    }
    node
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::Felt;
    use winterfell::crypto::{hashers::Rp64_256, MerkleTree, VectorCommitment};

    #[test]
    fn paths_and_root_match_winterfell_merkle_tree() {
        let keys: Vec<PublicKey> = (0..8u64)
            .map(|i| {
                PublicKey([
                    Felt::new(i),
                    Felt::new(2 * i),
                    Felt::new(3),
                    Felt::new(i * i),
                ])
            })
            .collect();
        let tree = KeyTree::new(&keys).unwrap();
        let wf = MerkleTree::<Rp64_256>::new(keys.iter().map(|k| k.0.into()).collect()).unwrap();
        assert_eq!(*wf.commitment().as_elements(), tree.root());
        for i in 0..8 {
            assert_eq!(root_from_path(&tree.leaf(i), i, &tree.path(i)), tree.root());
        }
    }

    #[test]
    fn padding_and_bounds() {
        let keys: Vec<PublicKey> = (0..5u64)
            .map(|i| PublicKey([Felt::new(i + 1); 4]))
            .collect();
        let tree = KeyTree::new(&keys).unwrap();
        assert_eq!(tree.depth(), 3);
        assert_eq!(tree.leaf(7), ZERO_DIGEST);
        assert!(matches!(
            KeyTree::new(&keys[..1]),
            Err(Error::NumKeysOutOfRange { n: 1, .. })
        ));
    }
}
