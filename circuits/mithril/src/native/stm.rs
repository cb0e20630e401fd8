//! Lottery, signer, aggregator and native verifier on Grumpkin.
//!
//! - Lottery value: `ev(sigma, j) = Poseidon_leaf(LOTTERY tag, sigma.x, sigma.y, j)`, a canonical
//!   field element read as an integer in `[0, r)`; index `j` is won iff `ev < T` (the leaf's
//!   target), i.e. iff `ev < phi(w) r` exactly (see [`crate::eligibility`]).
//! - The signer, the aggregator and the verifier are `mithril-core`'s ([`mithril_core::stm`]),
//!   written once for both curves; this crate supplies [`GrumpkinStm`]: its keys, unique
//!   signature, registration, lottery value and Poseidon Merkle tree. A signer slot holds the
//!   party, its Merkle path (whose index is the registration index) and its unique signature.

use halo2_base::utils::fe_to_biguint;
use tms_gadgets::{
    hash::{NativeHash, Poseidon},
    merkle::MerklePath,
    signature::schnorr::{SigningKey, VerifyingKey},
    Fr,
};

use crate::{
    params::Tag,
    registration::{Party, Registration, RegistrationCommitment},
    signature::{self, coordinates, UniqueSignature},
    MithrilError,
};

pub use crate::registration::GrumpkinStm;
pub use mithril_core::stm::{aggregate, verify, verify_single, IndexSlot};

/// `ev(sigma, j) = Poseidon_leaf(LOTTERY tag, sigma.x, sigma.y, j)`.
pub fn lottery_value(
    sigma: &tms_gadgets::curve::GrumpkinAffine,
    index: u64,
) -> Result<Fr, MithrilError> {
    lottery_value_at(sigma, Fr::from(index))
}

/// [`lottery_value`] of an index given as the field element the circuit hashes, whatever it is
/// (the circuit's range checks, not the hash, keep it an integer below `m`).
pub fn lottery_value_at(
    sigma: &tms_gadgets::curve::GrumpkinAffine,
    index: Fr,
) -> Result<Fr, MithrilError> {
    let [x, y] = coordinates(sigma)?;
    Ok(Poseidon.hash_leaf(&[Tag::Lottery.value(), x, y, index])?)
}

/// Whether lottery value `ev` wins against target `target` (`ev < T` as integers).
pub fn wins(ev: Fr, target: Fr) -> bool {
    mithril_core::lottery::wins(&fe_to_biguint(&ev), &fe_to_biguint(&target))
}

/// A signer's contribution: its unique signature and the indices it won.
pub type SingleSignature = mithril_core::stm::SingleSignature<GrumpkinStm>;
/// A registered signer.
pub type Signer = mithril_core::stm::Signer<GrumpkinStm>;
/// A certificate: at least `k` index slots over de-duplicated signer slots.
pub type Certificate = mithril_core::stm::Certificate<GrumpkinStm>;

/// One signer slot of a certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignerSlot {
    /// The registered party (key, stake, target): the leaf's contents.
    pub party: Party,
    /// Its Merkle path (the path's index is the registration index).
    pub path: MerklePath,
    /// Its unique signature.
    pub signature: UniqueSignature,
}

impl mithril_core::stm::Stm for GrumpkinStm {
    type SigningKey = SigningKey;
    type Signature = UniqueSignature;
    type SignerSlot = SignerSlot;

    fn verifying_key(key: &SigningKey) -> VerifyingKey {
        key.verifying_key()
    }
    fn sign(key: &SigningKey, bound: Fr) -> Result<UniqueSignature, MithrilError> {
        signature::sign(key, bound)
    }
    fn verifies(signature: &UniqueSignature, party: &Party, bound: Fr) -> bool {
        signature.verify(&party.key, bound)
    }
    fn wins(signature: &UniqueSignature, party: &Party, index: u64) -> Result<bool, MithrilError> {
        Ok(wins(lottery_value(&signature.sigma, index)?, party.target))
    }
    fn signer_slot(
        registration: &Registration,
        position: usize,
        signature: UniqueSignature,
    ) -> Result<SignerSlot, MithrilError> {
        Ok(SignerSlot {
            party: registration.parties()[position],
            path: registration.path(position)?,
            signature,
        })
    }
    fn slot_parts(slot: &SignerSlot) -> (usize, &Party, &UniqueSignature) {
        (slot.path.index, &slot.party, &slot.signature)
    }
    fn path_len(slot: &SignerSlot) -> usize {
        slot.path.siblings.len()
    }
    fn in_tree(
        commitment: &RegistrationCommitment,
        slot: &SignerSlot,
    ) -> Result<bool, MithrilError> {
        Ok(slot
            .path
            .verify(&Poseidon, slot.party.leaf()?, commitment.root))
    }
}

/// The verifying key of a signer slot (convenience for callers building statements).
pub fn slot_key(slot: &SignerSlot) -> VerifyingKey {
    slot.party.key
}
