//! The signer, the aggregator and the native verifier of SNARK-Mithril, written once for both
//! curves over what each circuit crate supplies ([`Stm`]: its field, keys, unique signature,
//! registration, lottery and Merkle tree).
//!
//! - Signer: signs the registration-bound message once and plays the `m` lotteries.
//! - Aggregator: verifies single signatures (invalid ones are skipped, repeats de-duplicated) and
//!   chooses `k` indices to need few signer slots ([`crate::lottery::select_indices`]).
//! - Certificate: **index slots** (strictly increasing index, signer slot) and **signer slots**
//!   (strictly increasing registration index, the registered party, its Merkle path, its unique
//!   signature): each signer's membership and signature are checked once, however many indices
//!   it wins. This is the shape the circuits take.

use std::{collections::BTreeMap, fmt::Debug};

use crate::{
    lottery,
    registration::{Party, Registration, RegistrationCommitment, RegistrationCurve},
    CoreError,
};

pub use crate::StmError;

/// One curve's side of the native scheme: its keys, its unique signature, its lottery and its
/// signer slots (the registration is [`RegistrationCurve`]'s). The signer, aggregator and
/// verifier are written over it once.
pub trait Stm: RegistrationCurve {
    /// A signer's secret key.
    type SigningKey: Clone + Debug;
    /// A unique signature with its proof.
    type Signature: Copy + Debug + PartialEq + Eq;
    /// A certificate's signer slot: a party, its Merkle path, its unique signature.
    type SignerSlot: Clone + Debug + PartialEq + Eq;

    /// A secret key's verifying key.
    fn verifying_key(key: &Self::SigningKey) -> Self::Key;
    /// `key`'s unique signature of `bound`.
    fn sign(key: &Self::SigningKey, bound: Self::Field) -> Result<Self::Signature, Self::Error>;
    /// Whether `signature` verifies for `party`'s key on `bound`.
    fn verifies(signature: &Self::Signature, party: &Party<Self>, bound: Self::Field) -> bool;
    /// Whether `signature`'s lottery value at `index` is below `party`'s target.
    fn wins(
        signature: &Self::Signature,
        party: &Party<Self>,
        index: u64,
    ) -> Result<bool, Self::Error>;
    /// The signer slot of registered party `position` with `signature` (its Merkle path read
    /// from the registration).
    fn signer_slot(
        registration: &Registration<Self>,
        position: usize,
        signature: Self::Signature,
    ) -> Result<Self::SignerSlot, Self::Error>;
    /// A signer slot's registration index, party and signature.
    fn slot_parts(slot: &Self::SignerSlot) -> (usize, &Party<Self>, &Self::Signature);
    /// The length of a signer slot's Merkle path (the tree depth it claims).
    fn path_len(slot: &Self::SignerSlot) -> usize;
    /// Whether a signer slot's leaf is under the commitment's root at its position (its path,
    /// [`Self::path_len`], has the commitment's depth: the caller checked it).
    fn in_tree(
        commitment: &RegistrationCommitment<Self>,
        slot: &Self::SignerSlot,
    ) -> Result<bool, Self::Error>;
}

/// A signer's contribution: its unique signature and the indices it won.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SingleSignature<C: Stm> {
    /// The signer's registration index.
    pub party: usize,
    /// The unique signature of the registration-bound message.
    pub signature: C::Signature,
    /// The won indices, increasing.
    pub indices: Vec<u64>,
}

/// A registered signer.
#[derive(Clone, Debug)]
pub struct Signer<C: Stm> {
    key: C::SigningKey,
    party: usize,
    info: Party<C>,
    commitment: RegistrationCommitment<C>,
}

impl<C: Stm> Signer<C> {
    /// The signer of `key` in `registration`.
    pub fn new(key: C::SigningKey, registration: &Registration<C>) -> Result<Self, C::Error> {
        let party = registration
            .index_of(&C::verifying_key(&key))
            .ok_or(StmError::NotRegistered)?;
        Ok(Self {
            key,
            party,
            info: registration.parties()[party],
            commitment: registration.commitment(),
        })
    }

    /// The registration index.
    pub fn party(&self) -> usize {
        self.party
    }

    /// Signs application message `msg` and plays the `m` lotteries; `None` if no index is won.
    pub fn sign(&self, msg: C::Field) -> Result<Option<SingleSignature<C>>, C::Error> {
        let signature = C::sign(&self.key, self.commitment.message(msg))?;
        let mut indices = Vec::new();
        for j in 0..self.commitment.params.m() {
            if C::wins(&signature, &self.info, j)? {
                indices.push(j);
            }
        }
        Ok((!indices.is_empty()).then_some(SingleSignature {
            party: self.party,
            signature,
            indices,
        }))
    }
}

/// One index slot of a certificate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexSlot {
    /// The lottery index.
    pub index: u64,
    /// The signer slot that won it.
    pub signer: usize,
}

/// A certificate: at least `k` index slots over de-duplicated signer slots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate<C: Stm> {
    /// Index slots, strictly increasing indices.
    pub indices: Vec<IndexSlot>,
    /// Signer slots, strictly increasing registration indices.
    pub signers: Vec<C::SignerSlot>,
}

/// Checks one single signature against the registration: the party exists, the signature
/// verifies on the bound message, every claimed index is below `m`, strictly increasing and won.
pub fn verify_single<C: Stm>(
    registration: &Registration<C>,
    msg: C::Field,
    sig: &SingleSignature<C>,
) -> Result<(), C::Error> {
    let party = registration
        .parties()
        .get(sig.party)
        .ok_or(StmError::NotRegistered)?;
    let commitment = registration.commitment();
    if !C::verifies(&sig.signature, party, commitment.message(msg)) {
        return Err(StmError::InvalidSignature(sig.party).into());
    }
    lottery::check_indices(sig.indices.iter().copied(), commitment.params.m())?;
    for &j in &sig.indices {
        if !C::wins(&sig.signature, party, j)? {
            return Err(StmError::LostLottery(j).into());
        }
    }
    Ok(())
}

/// Aggregates single signatures into a certificate of exactly `k` index slots. Invalid single
/// signatures are skipped and repeated submissions de-duplicated. The indices are chosen to need
/// few signer slots (each costs the circuit a Merkle path and a DLEQ proof, an index slot far
/// less): [`lottery::select_indices`].
pub fn aggregate<C: Stm>(
    registration: &Registration<C>,
    msg: C::Field,
    sigs: &[SingleSignature<C>],
) -> Result<Certificate<C>, C::Error> {
    let mut valid: BTreeMap<usize, &SingleSignature<C>> = BTreeMap::new();
    for sig in sigs {
        if !valid.contains_key(&sig.party) && verify_single(registration, msg, sig).is_ok() {
            valid.insert(sig.party, sig);
        }
    }
    let won = valid.iter().map(|(&p, s)| (p, s.indices.clone())).collect();
    let k = registration.params().k();
    let chosen = lottery::select_indices(k, &won)?;
    let mut used: Vec<usize> = chosen.iter().map(|&(_, p)| p).collect();
    used.sort_unstable();
    used.dedup();
    let signers = used
        .iter()
        .map(|&p| C::signer_slot(registration, p, valid[&p].signature))
        .collect::<Result<Vec<_>, C::Error>>()?;
    let indices = chosen
        .into_iter()
        .map(|(index, p)| IndexSlot {
            index,
            signer: used
                .binary_search(&p)
                .expect("used holds every chosen party"),
        })
        .collect();
    Ok(Certificate { indices, signers })
}

/// The native verifier: the statement is the registration commitment and the message.
///
/// Checks: at least `k` index slots, indices strictly increasing and below `m`; every index slot
/// names an existing signer slot and every signer slot is used; signer slots have strictly
/// increasing registration indices; each signer slot's leaf is under the root at its index; each
/// signer's unique signature verifies on the bound message; each index is won by its signer's
/// lottery value.
pub fn verify<C: Stm>(
    commitment: &RegistrationCommitment<C>,
    msg: C::Field,
    cert: &Certificate<C>,
) -> Result<(), C::Error> {
    let params = commitment.params;
    if (cert.indices.len() as u64) < params.k() {
        return Err(CoreError::NotEnoughIndices {
            found: cert.indices.len(),
            k: params.k(),
        }
        .into());
    }
    lottery::check_indices(cert.indices.iter().map(|s| s.index), params.m())?;
    let mut used = vec![false; cert.signers.len()];
    for (index_slot, slot) in cert.indices.iter().enumerate() {
        let Some(u) = used.get_mut(slot.signer) else {
            return Err(StmError::SignerSlotOutOfRange {
                index_slot,
                signer_slot: slot.signer,
            }
            .into());
        };
        *u = true;
    }
    if let Some(unused) = used.iter().position(|u| !u) {
        return Err(StmError::UnusedSignerSlot(unused).into());
    }
    let bound = commitment.message(msg);
    let mut previous = None;
    for (i, slot) in cert.signers.iter().enumerate() {
        let (position, party, signature) = C::slot_parts(slot);
        if previous.is_some_and(|p| position <= p) {
            return Err(StmError::SignersNotIncreasing(i).into());
        }
        previous = Some(position);
        if C::path_len(slot) != commitment.depth || !C::in_tree(commitment, slot)? {
            return Err(StmError::NotInTree(i).into());
        }
        if !C::verifies(signature, party, bound) {
            return Err(StmError::InvalidSignature(i).into());
        }
    }
    for slot in &cert.indices {
        let (_, party, signature) = C::slot_parts(&cert.signers[slot.signer]);
        if !C::wins(signature, party, slot.index)? {
            return Err(StmError::LostLottery(slot.index).into());
        }
    }
    Ok(())
}
