//! The registration, written once for both curves over what each supplies
//! ([`RegistrationCurve`]: its field, keys, targets, hashes and Merkle tree): the parties with
//! their eligibility targets, the tree of their leaves, and the commitment a verifier holds
//! ([`RegistrationCommitment`], whose digest the signed message binds). Also its
//! curve-independent checks and its tree depth.
//!
//! - Leaf `i`: the curve's hash of `(pk.x, pk.y, stake, T)`, with `T` the exact eligibility
//!   target of the stake ([`crate::eligibility`]).
//! - Tree: the curve's Merkle tree of the smallest depth holding all parties (or a given depth),
//!   in registration order; empty slots cannot be opened.
//! - Commitment: the root, the total stake, the depth and the parameters; its digest is the
//!   curve's tagged hash `H(REGISTRATION tag, root, total, depth, params digest)` and the signed
//!   message `H(MESSAGE tag, digest, msg)`. `T` is in the leaf, so the verifier and the circuit
//!   need not recompute `phi`; the total stake is committed so that anyone can recompute every
//!   leaf's `T` from the registration list and audit the root.

use std::{collections::HashSet, fmt::Debug, hash::Hash};

use crate::{CoreError, Parameters, StmError};

/// One curve's side of a registration: what [`Registration`] and [`RegistrationCommitment`]
/// need of a field, a key, a hash and a Merkle tree (a marker type, so the derived traits of
/// the generic types hold).
pub trait RegistrationCurve: Copy + Debug + PartialEq + Eq {
    /// The circuit's field (targets, leaves, roots, messages).
    type Field: Copy + Debug + PartialEq + Eq + From<u64>;
    /// A party's verifying key.
    type Key: Copy + Debug + PartialEq + Eq;
    /// What two keys are compared by when registering.
    type KeyId: Eq + Hash;
    /// The Merkle tree of the leaves.
    type Tree: Clone + Debug;
    /// A party's Merkle path.
    type Path;
    /// The crate's error.
    type Error: From<CoreError> + From<StmError>;

    /// Entry `index`'s key identity, refusing a key no registration may hold (the identity).
    fn key_id(index: usize, key: &Self::Key) -> Result<Self::KeyId, Self::Error>;
    /// The eligibility target of `stake` out of `total` under `params`.
    fn target(params: &Parameters, stake: u64, total: u64) -> Result<Self::Field, Self::Error>;
    /// The leaf hash of `(pk.x, pk.y, stake, target)`.
    fn leaf(party: &Party<Self>) -> Result<Self::Field, Self::Error>;
    /// The tree of `leaves` of `depth` (refused if they do not fit).
    fn tree(leaves: Vec<Self::Field>, depth: usize) -> Result<Self::Tree, Self::Error>;
    /// A tree's root.
    fn root(tree: &Self::Tree) -> Self::Field;
    /// The Merkle path of leaf `index`.
    fn path(tree: &Self::Tree, index: usize) -> Result<Self::Path, Self::Error>;
    /// The tagged hash of the registration digest and of the signed message.
    fn hash(inputs: &[Self::Field]) -> Self::Field;
    /// The domain tag of the registration digest.
    fn registration_tag() -> Self::Field;
    /// The domain tag of the signed message.
    fn message_tag() -> Self::Field;
    /// The parameters' digest.
    fn params_digest(params: &Parameters) -> Self::Field;
}

/// One registered party: a leaf's contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Party<C: RegistrationCurve> {
    /// Its verifying key.
    pub key: C::Key,
    /// Its stake.
    pub stake: u64,
    /// Its eligibility target `ceil(phi(stake / total) r)` (below r, so a field element).
    pub target: C::Field,
}

impl<C: RegistrationCurve> Party<C> {
    /// The leaf `H(pk.x, pk.y, stake, T)`.
    pub fn leaf(&self) -> Result<C::Field, C::Error> {
        C::leaf(self)
    }
}

/// What a verifier needs of a registration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegistrationCommitment<C: RegistrationCurve> {
    /// The Merkle root of the leaves.
    pub root: C::Field,
    /// The total stake.
    pub total_stake: u64,
    /// The tree depth.
    pub depth: usize,
    /// The parameters.
    pub params: Parameters,
}

impl<C: RegistrationCurve> RegistrationCommitment<C> {
    /// `H(REGISTRATION tag, root, total stake, depth, params digest)`: what a script stores and
    /// the circuit takes as its statement.
    pub fn digest(&self) -> C::Field {
        C::hash(&[
            C::registration_tag(),
            self.root,
            C::Field::from(self.total_stake),
            C::Field::from(self.depth as u64),
            C::params_digest(&self.params),
        ])
    }

    /// The field element actually signed for the application message `msg`:
    /// `H(MESSAGE tag, registration digest, msg)`. Binding the registration makes signatures
    /// (and so lottery values) specific to this registration and these parameters.
    pub fn message(&self, msg: C::Field) -> C::Field {
        C::hash(&[C::message_tag(), self.digest(), msg])
    }
}

/// A closed registration: the parties with their targets, in the curve's Merkle tree.
#[derive(Clone, Debug)]
pub struct Registration<C: RegistrationCurve> {
    params: Parameters,
    parties: Vec<Party<C>>,
    total_stake: u64,
    depth: usize,
    tree: C::Tree,
}

impl<C: RegistrationCurve> Registration<C> {
    /// Registers `(key, stake)` pairs in a tree of the smallest depth: refuses an empty list,
    /// zero stakes, repeated keys, the identity as a key and a total above `u64::MAX`.
    pub fn new(params: Parameters, entries: &[(C::Key, u64)]) -> Result<Self, C::Error> {
        Self::with_depth(params, entries, depth(entries.len()))
    }

    /// [`Self::new`] in a tree of `depth` (at least the smallest that holds every party; the
    /// extra slots are empty), e.g. to prove with a mainnet-depth circuit.
    pub fn with_depth(
        params: Parameters,
        entries: &[(C::Key, u64)],
        depth: usize,
    ) -> Result<Self, C::Error> {
        let ids = entries
            .iter()
            .enumerate()
            .map(|(i, (key, stake))| Ok((C::key_id(i, key)?, *stake)))
            .collect::<Result<Vec<_>, C::Error>>()?;
        let total = total_stake(&ids)?;
        let parties = entries
            .iter()
            .map(|(key, stake)| {
                Ok(Party {
                    key: *key,
                    stake: *stake,
                    target: C::target(&params, *stake, total)?,
                })
            })
            .collect::<Result<Vec<_>, C::Error>>()?;
        let leaves = parties
            .iter()
            .map(Party::leaf)
            .collect::<Result<Vec<_>, _>>()?;
        let tree = C::tree(leaves, depth)?;
        Ok(Self {
            params,
            parties,
            total_stake: total,
            depth,
            tree,
        })
    }

    /// The parameters.
    pub fn params(&self) -> Parameters {
        self.params
    }

    /// The parties in registration (leaf) order.
    pub fn parties(&self) -> &[Party<C>] {
        &self.parties
    }

    /// The total stake.
    pub fn total_stake(&self) -> u64 {
        self.total_stake
    }

    /// The tree depth.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The Merkle tree.
    pub fn tree(&self) -> &C::Tree {
        &self.tree
    }

    /// The commitment a verifier holds.
    pub fn commitment(&self) -> RegistrationCommitment<C> {
        RegistrationCommitment {
            root: C::root(&self.tree),
            total_stake: self.total_stake,
            depth: self.depth,
            params: self.params,
        }
    }

    /// The registration index of `key`.
    pub fn index_of(&self, key: &C::Key) -> Option<usize> {
        self.parties.iter().position(|p| p.key == *key)
    }

    /// The Merkle path of party `index`.
    pub fn path(&self, index: usize) -> Result<C::Path, C::Error> {
        if index >= self.parties.len() {
            return Err(StmError::NotRegistered.into());
        }
        C::path(&self.tree, index)
    }
}

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
