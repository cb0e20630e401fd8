//! Merkle trees generic over the hash, native and in-circuit.
//!
//! Leaves are digests (compute them with [`NativeHash::hash_leaf`] /
//! [`HashInstructions::hash_leaf`], which are domain-separated from the node hash). A tree of
//! depth `d` has `2^d` leaf slots; slots past the given leaves hold [`EMPTY_LEAF`] (zero). An
//! empty slot cannot be proven to hold a real leaf: that would need a leaf-hash preimage of zero.
//!
//! In-circuit ([`MerkleChip`]):
//! - [`MerkleChip::compute_root`]: one path; the leaf index is decomposed into `depth` constrained
//!   bits (so `index < 2^depth`), bit `i` selects whether the running node is the left or right
//!   input at level `i`. Returns the root; the caller constrains it.
//! - [`MerkleChip::compute_batch_roots`]: several paths whose indices are constrained to be
//!   strictly increasing (so the leaves are distinct).
//! - [`MerkleChip::compute_root_of_all`]: the root recomputed from all `2^d` leaves (`2^d - 1`
//!   node hashes).

use halo2_base::{
    gates::{GateInstructions, RangeChip, RangeInstructions},
    AssignedValue, Context,
};

use crate::{
    hash::{HashInstructions, NativeHash},
    Fr, GadgetError,
};

/// The value of a leaf slot that holds no leaf.
pub const EMPTY_LEAF: Fr = Fr::zero();
/// The largest supported depth.
pub const MAX_DEPTH: usize = 32;

/// A native Merkle tree over leaf digests.
#[derive(Clone, Debug)]
pub struct MerkleTree<H: NativeHash> {
    hasher: H,
    /// `levels[0]` are the `2^depth` leaf slots, `levels[depth]` is `[root]`.
    levels: Vec<Vec<Fr>>,
}

/// One authentication path: the leaf index and the sibling at each level, leaf level first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MerklePath {
    /// Index of the leaf.
    pub index: usize,
    /// Siblings from the leaf level up.
    pub siblings: Vec<Fr>,
}

impl<H: NativeHash> MerkleTree<H> {
    /// Builds the tree of the smallest depth that holds `leaves` (at least depth 1).
    pub fn new(hasher: H, leaves: Vec<Fr>) -> Result<Self, GadgetError> {
        if leaves.is_empty() {
            return Err(GadgetError::NoLeaves);
        }
        let depth = (usize::BITS - (leaves.len() - 1).leading_zeros()).max(1) as usize;
        Self::with_depth(hasher, leaves, depth)
    }

    /// Builds a tree of the given depth over `leaves`, the remaining slots empty.
    pub fn with_depth(hasher: H, mut leaves: Vec<Fr>, depth: usize) -> Result<Self, GadgetError> {
        if depth > MAX_DEPTH {
            return Err(GadgetError::DepthTooLarge(depth));
        }
        if leaves.is_empty() {
            return Err(GadgetError::NoLeaves);
        }
        if leaves.len() > 1 << depth {
            return Err(GadgetError::TooManyLeaves {
                leaves: leaves.len(),
                depth,
            });
        }
        leaves.resize(1 << depth, EMPTY_LEAF);
        let mut levels = vec![leaves];
        for _ in 0..depth {
            let below = levels.last().expect("at least the leaves");
            let above = below
                .chunks(2)
                .map(|p| hasher.hash_node(p[0], p[1]))
                .collect();
            levels.push(above);
        }
        Ok(Self { hasher, levels })
    }

    /// The root.
    pub fn root(&self) -> Fr {
        self.levels[self.depth()][0]
    }

    /// The depth (number of node levels above the leaves).
    pub fn depth(&self) -> usize {
        self.levels.len() - 1
    }

    /// The leaf slots (including empty ones).
    pub fn leaves(&self) -> &[Fr] {
        &self.levels[0]
    }

    /// The hasher.
    pub fn hasher(&self) -> &H {
        &self.hasher
    }

    /// The authentication path of leaf `index`.
    pub fn path(&self, index: usize) -> Result<MerklePath, GadgetError> {
        let capacity = self.levels[0].len();
        if index >= capacity {
            return Err(GadgetError::IndexOutOfRange { index, capacity });
        }
        let siblings = (0..self.depth())
            .map(|level| self.levels[level][(index >> level) ^ 1])
            .collect();
        Ok(MerklePath { index, siblings })
    }

    /// A batch proof for the leaves at `indices` (strictly increasing): only the nodes that
    /// cannot be recomputed from the leaves themselves, level by level, left to right.
    pub fn batch_proof(&self, indices: &[usize]) -> Result<BatchProof, GadgetError> {
        check_increasing(indices, self.levels[0].len())?;
        let mut known: Vec<usize> = indices.to_vec();
        let mut nodes = Vec::new();
        for level in 0..self.depth() {
            let mut parents = Vec::with_capacity(known.len());
            let mut i = 0;
            while i < known.len() {
                let pos = known[i];
                if i + 1 < known.len() && known[i + 1] == pos ^ 1 {
                    i += 2;
                } else {
                    nodes.push(self.levels[level][pos ^ 1]);
                    i += 1;
                }
                parents.push(pos >> 1);
            }
            known = parents;
        }
        Ok(BatchProof {
            depth: self.depth(),
            indices: indices.to_vec(),
            nodes,
        })
    }
}

fn check_increasing(indices: &[usize], capacity: usize) -> Result<(), GadgetError> {
    if indices.is_empty() {
        return Err(GadgetError::NoLeaves);
    }
    for (position, w) in indices.windows(2).enumerate() {
        if w[1] <= w[0] {
            return Err(GadgetError::IndicesNotIncreasing {
                position: position + 1,
            });
        }
    }
    let last = *indices.last().expect("non-empty");
    if last >= capacity {
        return Err(GadgetError::IndexOutOfRange {
            index: last,
            capacity,
        });
    }
    Ok(())
}

impl MerklePath {
    /// The root this path leads to from `leaf`.
    pub fn compute_root<H: NativeHash>(&self, hasher: &H, leaf: Fr) -> Fr {
        self.siblings
            .iter()
            .enumerate()
            .fold(leaf, |node, (level, sib)| {
                if (self.index >> level) & 1 == 0 {
                    hasher.hash_node(node, *sib)
                } else {
                    hasher.hash_node(*sib, node)
                }
            })
    }

    /// Whether `leaf` sits at `self.index` under `root`.
    pub fn verify<H: NativeHash>(&self, hasher: &H, leaf: Fr, root: Fr) -> bool {
        self.index < 1usize << self.siblings.len().min(MAX_DEPTH)
            && self.compute_root(hasher, leaf) == root
    }
}

/// A multi-leaf proof: the nodes not recomputable from the proven leaves, in the order
/// [`MerkleTree::batch_proof`] emits them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchProof {
    /// Depth of the tree.
    pub depth: usize,
    /// Strictly increasing leaf indices.
    pub indices: Vec<usize>,
    /// The extra nodes.
    pub nodes: Vec<Fr>,
}

impl BatchProof {
    /// The root these `leaves` (one per index) lead to, or an error for a malformed proof.
    pub fn compute_root<H: NativeHash>(
        &self,
        hasher: &H,
        leaves: &[Fr],
    ) -> Result<Fr, GadgetError> {
        if self.depth > MAX_DEPTH {
            return Err(GadgetError::DepthTooLarge(self.depth));
        }
        check_increasing(&self.indices, 1 << self.depth)?;
        if leaves.len() != self.indices.len() {
            return Err(GadgetError::MalformedBatchProof(
                "one leaf per index is needed",
            ));
        }
        let mut known: Vec<(usize, Fr)> = self
            .indices
            .iter()
            .copied()
            .zip(leaves.iter().copied())
            .collect();
        let mut extra = self.nodes.iter();
        for _ in 0..self.depth {
            let mut parents = Vec::with_capacity(known.len());
            let mut i = 0;
            while i < known.len() {
                let (pos, node) = known[i];
                let (left, right) = if i + 1 < known.len() && known[i + 1].0 == pos ^ 1 {
                    i += 2;
                    (node, known[i - 1].1)
                } else {
                    i += 1;
                    let sib = *extra
                        .next()
                        .ok_or(GadgetError::MalformedBatchProof("too few nodes"))?;
                    if pos & 1 == 0 {
                        (node, sib)
                    } else {
                        (sib, node)
                    }
                };
                parents.push((pos >> 1, hasher.hash_node(left, right)));
            }
            known = parents;
        }
        if extra.next().is_some() {
            return Err(GadgetError::MalformedBatchProof("too many nodes"));
        }
        Ok(known[0].1)
    }
}

/// In-circuit Merkle gadgets over any [`HashInstructions`].
#[derive(Clone, Debug)]
pub struct MerkleChip<'r, H: HashInstructions> {
    hasher: H,
    range: &'r RangeChip<Fr>,
}

/// An assigned authentication path.
#[derive(Clone, Debug)]
pub struct AssignedMerklePath {
    /// The leaf index (constrained below `2^depth` by its bit decomposition).
    pub index: AssignedValue<Fr>,
    /// Siblings from the leaf level up.
    pub siblings: Vec<AssignedValue<Fr>>,
}

impl AssignedMerklePath {
    /// Loads a native path as witnesses.
    pub fn load(ctx: &mut Context<Fr>, path: &MerklePath) -> Self {
        Self {
            index: ctx.load_witness(Fr::from(path.index as u64)),
            siblings: ctx.assign_witnesses(path.siblings.iter().copied()),
        }
    }
}

impl<'r, H: HashInstructions> MerkleChip<'r, H> {
    /// A chip over `hasher`, using `range` for bit decompositions and index comparisons.
    pub fn new(hasher: H, range: &'r RangeChip<Fr>) -> Self {
        Self { hasher, range }
    }

    /// The hash chip.
    pub fn hasher(&self) -> &H {
        &self.hasher
    }

    /// Constrains and returns the root reached from `leaf` along `path`.
    pub fn compute_root(
        &self,
        ctx: &mut Context<Fr>,
        leaf: AssignedValue<Fr>,
        path: &AssignedMerklePath,
    ) -> AssignedValue<Fr> {
        let gate = self.range.gate();
        let depth = path.siblings.len();
        assert!(depth <= MAX_DEPTH, "Merkle depth above {MAX_DEPTH}");
        // num_to_bits constrains each bit to {0,1} and their recomposition to equal `index`.
        let bits = gate.num_to_bits(ctx, path.index, depth);
        let mut node = leaf;
        for (bit, sib) in bits.iter().zip(&path.siblings) {
            // bit = 0: (node, sib); bit = 1: (sib, node).
            let left = gate.select(ctx, *sib, node, *bit);
            let right = gate.select(ctx, node, *sib, *bit);
            node = self.hasher.hash_node(ctx, left, right);
        }
        node
    }

    /// Constrains that `leaf` sits at `path.index` under `root`.
    pub fn assert_membership(
        &self,
        ctx: &mut Context<Fr>,
        leaf: AssignedValue<Fr>,
        path: &AssignedMerklePath,
        root: AssignedValue<Fr>,
    ) {
        let computed = self.compute_root(ctx, leaf, path);
        ctx.constrain_equal(&computed, &root);
    }

    /// Constrains that the paths' indices are strictly increasing and returns each path's root.
    /// All paths must have the same depth.
    pub fn compute_batch_roots(
        &self,
        ctx: &mut Context<Fr>,
        leaves: &[AssignedValue<Fr>],
        paths: &[AssignedMerklePath],
    ) -> Vec<AssignedValue<Fr>> {
        assert_eq!(leaves.len(), paths.len(), "one path per leaf");
        let depth = paths.first().map_or(0, |p| p.siblings.len());
        assert!(
            paths.iter().all(|p| p.siblings.len() == depth),
            "paths of one depth"
        );
        let roots: Vec<_> = leaves
            .iter()
            .zip(paths)
            .map(|(leaf, path)| self.compute_root(ctx, *leaf, path))
            .collect();
        // Each index is below 2^depth (bit decomposition above), so a comparison on depth + 1
        // bits is exact.
        for w in paths.windows(2) {
            self.range
                .check_less_than(ctx, w[0].index, w[1].index, depth + 1);
        }
        roots
    }

    /// Constrains and returns the root of the tree whose leaf slots are `leaves` (a power of two).
    pub fn compute_root_of_all(
        &self,
        ctx: &mut Context<Fr>,
        leaves: &[AssignedValue<Fr>],
    ) -> AssignedValue<Fr> {
        assert!(
            leaves.len().is_power_of_two() && leaves.len() >= 2,
            "2^d leaves, d >= 1"
        );
        let mut level = leaves.to_vec();
        while level.len() > 1 {
            level = level
                .chunks(2)
                .map(|p| self.hasher.hash_node(ctx, p[0], p[1]))
                .collect();
        }
        level[0]
    }
}
