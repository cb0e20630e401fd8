//! The shape of a tree of aggregation circuits, which a root key's header states: apart from
//! [`crate::chain`], so that the key files of [`crate::snark`] name it without depending on
//! the chain's statement.

/// The shape of a chain tree: leaves of `per_leaf` certificates, then `levels` levels of nodes
/// of `per_node` children each; it proves `per_leaf * per_node^levels` epochs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ChainShape {
    /// Certificates per leaf.
    pub per_leaf: usize,
    /// Children per node.
    pub per_node: usize,
    /// Node levels above the leaves (0: one leaf is the root).
    pub levels: usize,
    /// Rows of every aggregation circuit, `2^k`.
    pub k: u32,
}

impl ChainShape {
    /// Epochs a tree of this shape proves.
    pub fn epochs(&self) -> usize {
        self.per_leaf * self.per_node.pow(self.levels as u32)
    }
}
