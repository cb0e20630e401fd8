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

/// The Grumpkin side of the native scheme: its registration here
/// ([`mithril_core::registration::RegistrationCurve`]), its signer and lottery in
/// [`crate::stm`] ([`mithril_core::stm::Stm`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GrumpkinStm;

/// One registered party.
pub type Party = mithril_core::registration::Party<GrumpkinStm>;
/// What a verifier needs of a registration.
pub type RegistrationCommitment = mithril_core::registration::RegistrationCommitment<GrumpkinStm>;
/// A closed registration: the parties, their targets, the tree.
pub type Registration = mithril_core::registration::Registration<GrumpkinStm>;

impl mithril_core::registration::RegistrationCurve for GrumpkinStm {
    type Field = Fr;
    type Key = VerifyingKey;
    type KeyId = [Fr; 2];
    type Tree = MerkleTree<Poseidon>;
    type Path = MerklePath;
    type Error = MithrilError;

    /// The key's coordinates: the identity has none.
    fn key_id(_: usize, key: &VerifyingKey) -> Result<[Fr; 2], MithrilError> {
        coordinates(&key.0)
    }
    fn target(params: &Parameters, stake: u64, total: u64) -> Result<Fr, MithrilError> {
        let t = eligibility::target(params.phi_f(), stake, total)?;
        Ok(biguint_to_fe(&t.value))
    }
    /// `Poseidon_leaf(pk.x, pk.y, stake, T)` (four inputs, two permutations).
    fn leaf(party: &Party) -> Result<Fr, MithrilError> {
        let [x, y] = coordinates(&party.key.0)?;
        Ok(Poseidon.hash_leaf(&[x, y, Fr::from(party.stake), party.target])?)
    }
    fn tree(leaves: Vec<Fr>, depth: usize) -> Result<MerkleTree<Poseidon>, MithrilError> {
        Ok(MerkleTree::with_depth(Poseidon, leaves, depth)?)
    }
    fn root(tree: &MerkleTree<Poseidon>) -> Fr {
        tree.root()
    }
    fn path(tree: &MerkleTree<Poseidon>, index: usize) -> Result<MerklePath, MithrilError> {
        Ok(tree.path(index)?)
    }
    /// Poseidon in leaf mode.
    fn hash(inputs: &[Fr]) -> Fr {
        Poseidon.hash_leaf(inputs).expect("non-empty input")
    }
    fn registration_tag() -> Fr {
        Tag::Registration.value()
    }
    fn message_tag() -> Fr {
        Tag::Message.value()
    }
    fn params_digest(params: &Parameters) -> Fr {
        params.digest()
    }
}
