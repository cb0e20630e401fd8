//! Registration: `(key, stake)` pairs, each with its eligibility target, committed in a Poseidon
//! Merkle tree.
//!
//! - Leaf `i`: `Poseidon_leaf(pk.x, pk.y, stake, T)` (four inputs, two permutations), with
//!   `T = ceil(phi(stake / total) r)` from [`crate::eligibility::target`].
//! - Tree: `MerkleTree<Poseidon>` of the smallest depth holding all parties, in registration
//!   order; empty slots are zero and cannot be opened.
//! - Commitment ([`RegistrationCommitment`]): the root, the total stake, the depth and the
//!   parameters. The total stake is not in a leaf: it is a field of the commitment and enters its
//!   [`RegistrationCommitment::digest`] `Poseidon_leaf(REGISTRATION tag, root, total, depth,
//!   params digest)`, which the signed message binds (see [`RegistrationCommitment::message`])
//!   and which the circuit will take as its public statement. `T` itself is in the leaf, so the
//!   verifier (and the circuit) need not recompute `phi`; the total stake is committed so that
//!   anyone can recompute every leaf's `T` from the registration list and audit the root.

use halo2_base::utils::biguint_to_fe;
use tms_gadgets::{
    hash::{NativeHash, Poseidon},
    merkle::{MerklePath, MerkleTree},
    signature::schnorr::VerifyingKey,
    Fr,
};

use crate::{
    eligibility,
    params::{ParametersDigest, Tag},
    signature::coordinates,
    MithrilError, Parameters,
};

/// One registered party.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Party {
    /// Its verifying key.
    pub key: VerifyingKey,
    /// Its stake.
    pub stake: u64,
    /// Its eligibility target `ceil(phi(stake / total) r)` (below r, so a field element).
    pub target: Fr,
}

impl Party {
    /// The leaf `Poseidon_leaf(pk.x, pk.y, stake, T)`.
    pub fn leaf(&self) -> Result<Fr, MithrilError> {
        let [x, y] = coordinates(&self.key.0)?;
        Ok(Poseidon.hash_leaf(&[x, y, Fr::from(self.stake), self.target])?)
    }
}

/// What a verifier needs of a registration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegistrationCommitment {
    /// The Merkle root of the leaves.
    pub root: Fr,
    /// The total stake.
    pub total_stake: u64,
    /// The tree depth.
    pub depth: usize,
    /// The parameters.
    pub params: Parameters,
}

impl RegistrationCommitment {
    /// `Poseidon_leaf(REGISTRATION tag, root, total stake, depth, params digest)`.
    pub fn digest(&self) -> Fr {
        Poseidon
            .hash_leaf(&[
                Tag::Registration.value(),
                self.root,
                Fr::from(self.total_stake),
                Fr::from(self.depth as u64),
                self.params.digest(),
            ])
            .expect("non-empty input")
    }

    /// The field element actually signed for the application message `msg`:
    /// `Poseidon_leaf(MESSAGE tag, registration digest, msg)`. Binding the registration makes
    /// signatures (and so lottery values) specific to this registration and these parameters.
    pub fn message(&self, msg: Fr) -> Fr {
        Poseidon
            .hash_leaf(&[Tag::Message.value(), self.digest(), msg])
            .expect("non-empty input")
    }
}

/// A closed registration: the parties, their targets, the tree.
#[derive(Clone, Debug)]
pub struct Registration {
    params: Parameters,
    parties: Vec<Party>,
    total_stake: u64,
    tree: MerkleTree<Poseidon>,
}

impl Registration {
    /// Registers `(key, stake)` pairs: rejects an empty list, zero stakes, repeated keys, the
    /// identity as a key and a total above `u64::MAX`.
    pub fn new(params: Parameters, entries: &[(VerifyingKey, u64)]) -> Result<Self, MithrilError> {
        Self::build(params, entries, None)
    }

    /// [`Self::new`] in a tree of the given `depth` (at least the smallest that holds every
    /// party; the extra slots are empty), e.g. to prove with a mainnet-depth circuit.
    pub fn with_depth(
        params: Parameters,
        entries: &[(VerifyingKey, u64)],
        depth: usize,
    ) -> Result<Self, MithrilError> {
        Self::build(params, entries, Some(depth))
    }

    fn build(
        params: Parameters,
        entries: &[(VerifyingKey, u64)],
        depth: Option<usize>,
    ) -> Result<Self, MithrilError> {
        let keys = entries
            .iter()
            .map(|(key, stake)| Ok((coordinates(&key.0)?, *stake)))
            .collect::<Result<Vec<_>, MithrilError>>()?;
        let total = mithril_core::registration::total_stake(&keys)?;
        let parties = entries
            .iter()
            .map(|(key, stake)| {
                let t = eligibility::target(params.phi_f(), *stake, total)?;
                Ok(Party {
                    key: *key,
                    stake: *stake,
                    target: biguint_to_fe(&t.value),
                })
            })
            .collect::<Result<Vec<_>, MithrilError>>()?;
        let leaves = parties
            .iter()
            .map(Party::leaf)
            .collect::<Result<Vec<_>, _>>()?;
        let tree = match depth {
            None => MerkleTree::new(Poseidon, leaves)?,
            Some(d) => MerkleTree::with_depth(Poseidon, leaves, d)?,
        };
        Ok(Self {
            params,
            parties,
            total_stake: total,
            tree,
        })
    }

    /// The parameters.
    pub fn params(&self) -> Parameters {
        self.params
    }

    /// The parties in registration (leaf) order.
    pub fn parties(&self) -> &[Party] {
        &self.parties
    }

    /// The total stake.
    pub fn total_stake(&self) -> u64 {
        self.total_stake
    }

    /// The Merkle tree.
    pub fn tree(&self) -> &MerkleTree<Poseidon> {
        &self.tree
    }

    /// The commitment a verifier holds.
    pub fn commitment(&self) -> RegistrationCommitment {
        RegistrationCommitment {
            root: self.tree.root(),
            total_stake: self.total_stake,
            depth: self.tree.depth(),
            params: self.params,
        }
    }

    /// The registration index of `key`.
    pub fn index_of(&self, key: &VerifyingKey) -> Option<usize> {
        self.parties.iter().position(|p| p.key == *key)
    }

    /// The Merkle path of party `index`.
    pub fn path(&self, index: usize) -> Result<MerklePath, MithrilError> {
        if index >= self.parties.len() {
            return Err(mithril_core::stm::StmError::NotRegistered.into());
        }
        Ok(self.tree.path(index)?)
    }
}
