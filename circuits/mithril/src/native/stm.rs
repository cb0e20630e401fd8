//! Lottery, signer, aggregator and native verifier.
//!
//! - Lottery value: `ev(sigma, j) = Poseidon_leaf(LOTTERY tag, sigma.x, sigma.y, j)`, a canonical
//!   field element read as an integer in `[0, r)`; index `j` is won iff `ev < T` (the leaf's
//!   target), i.e. iff `ev < phi(w) r` exactly (see [`crate::eligibility`]).
//! - Signer: signs the registration-bound message once and evaluates the `m` lotteries.
//! - Aggregator: verifies single signatures (invalid ones are skipped), keeps for every winning
//!   index the first signer (lowest registration index) that won it, takes the `k` smallest
//!   indices, and fails with [`MithrilError::NotEnoughIndices`] below `k`.
//! - Certificate: **index slots** (strictly increasing index, signer slot) and **signer slots**
//!   (strictly increasing registration index, key, stake, target, Merkle path, unique
//!   signature): each signer's membership and signature are checked once, however many indices
//!   it wins. This is the shape the circuit will take.

use std::collections::BTreeMap;

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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SingleSignature {
    /// The signer's registration index.
    pub party: usize,
    /// The unique signature of the registration-bound message.
    pub signature: UniqueSignature,
    /// The won indices, increasing.
    pub indices: Vec<u64>,
}

/// A registered signer.
#[derive(Clone, Debug)]
pub struct Signer {
    key: SigningKey,
    party: usize,
    info: Party,
    commitment: RegistrationCommitment,
}

impl Signer {
    /// The signer of `key` in `registration`.
    pub fn new(key: SigningKey, registration: &Registration) -> Result<Self, MithrilError> {
        let party = registration
            .index_of(&key.verifying_key())
            .ok_or(MithrilError::NotRegistered)?;
        Ok(Self {
            key,
            party,
            info: registration.parties()[party].clone(),
            commitment: registration.commitment(),
        })
    }

    /// The registration index.
    pub fn party(&self) -> usize {
        self.party
    }

    /// Signs `msg` and plays the `m` lotteries; `None` if no index is won.
    pub fn sign(&self, msg: Fr) -> Result<Option<SingleSignature>, MithrilError> {
        let signature = signature::sign(&self.key, self.commitment.message(msg))?;
        let mut indices = Vec::new();
        for j in 0..self.commitment.params.m() {
            if wins(lottery_value(&signature.sigma, j)?, self.info.target) {
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

/// A certificate: at least `k` index slots over de-duplicated signer slots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// Index slots, strictly increasing indices.
    pub indices: Vec<IndexSlot>,
    /// Signer slots, strictly increasing registration indices.
    pub signers: Vec<SignerSlot>,
}

/// Checks one single signature against the registration: the party exists, the signature
/// verifies on the bound message, every claimed index is below `m`, strictly increasing and won.
pub fn verify_single(
    registration: &Registration,
    msg: Fr,
    sig: &SingleSignature,
) -> Result<(), MithrilError> {
    let party = registration
        .parties()
        .get(sig.party)
        .ok_or(MithrilError::NotRegistered)?;
    let commitment = registration.commitment();
    if !sig.signature.verify(&party.key, commitment.message(msg)) {
        return Err(MithrilError::InvalidSignature { slot: sig.party });
    }
    check_indices(sig.indices.iter().copied(), commitment.params.m())?;
    for &j in &sig.indices {
        if !wins(lottery_value(&sig.signature.sigma, j)?, party.target) {
            return Err(MithrilError::LostLottery { index: j });
        }
    }
    Ok(())
}

fn check_indices(indices: impl Iterator<Item = u64>, m: u64) -> Result<(), MithrilError> {
    Ok(mithril_core::lottery::check_indices(indices, m)?)
}

/// Aggregates single signatures into a certificate of exactly `k` index slots. Invalid single
/// signatures are skipped and repeated submissions de-duplicated. The indices are chosen to need
/// few signer slots (each costs the circuit a Merkle path and a DLEQ proof, an index slot far
/// less): greedily, the signer with the most indices not yet taken goes first (ties to the lower
/// registration index), and the first `k` indices taken, in index order, form the certificate.
pub fn aggregate(
    registration: &Registration,
    msg: Fr,
    sigs: &[SingleSignature],
) -> Result<Certificate, MithrilError> {
    let params = registration.params();
    let mut valid: BTreeMap<usize, &SingleSignature> = BTreeMap::new();
    for sig in sigs {
        if !valid.contains_key(&sig.party) && verify_single(registration, msg, sig).is_ok() {
            valid.insert(sig.party, sig);
        }
    }
    let won: BTreeMap<usize, Vec<u64>> = valid
        .iter()
        .map(|(&party, sig)| (party, sig.indices.clone()))
        .collect();
    let chosen = mithril_core::lottery::select_indices(params.k(), &won)?;
    let mut used: Vec<usize> = chosen.iter().map(|&(_, p)| p).collect();
    used.sort_unstable();
    used.dedup();
    let signers = used
        .iter()
        .map(|&p| {
            Ok(SignerSlot {
                party: registration.parties()[p].clone(),
                path: registration.path(p)?,
                signature: valid[&p].signature,
            })
        })
        .collect::<Result<Vec<_>, MithrilError>>()?;
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
/// increasing registration indices; each signer slot's leaf `(pk, stake, T)` is under the root at
/// its index; each signer's unique signature verifies on the bound message; each index is won by
/// its signer's lottery value.
pub fn verify(
    commitment: &RegistrationCommitment,
    msg: Fr,
    cert: &Certificate,
) -> Result<(), MithrilError> {
    let params = commitment.params;
    if (cert.indices.len() as u64) < params.k() {
        return Err(MithrilError::NotEnoughIndices {
            found: cert.indices.len(),
            k: params.k(),
        });
    }
    check_indices(cert.indices.iter().map(|s| s.index), params.m())?;
    let mut used = vec![false; cert.signers.len()];
    for (i, slot) in cert.indices.iter().enumerate() {
        let Some(u) = used.get_mut(slot.signer) else {
            return Err(MithrilError::SignerSlotOutOfRange {
                index_slot: i,
                signer_slot: slot.signer,
            });
        };
        *u = true;
    }
    if let Some(unused) = used.iter().position(|u| !u) {
        return Err(MithrilError::UnusedSignerSlot(unused));
    }
    let signed = commitment.message(msg);
    for (i, slot) in cert.signers.iter().enumerate() {
        if i > 0 && slot.path.index <= cert.signers[i - 1].path.index {
            return Err(MithrilError::SignersNotIncreasing(i));
        }
        if slot.path.siblings.len() != commitment.depth {
            return Err(MithrilError::NotInTree(i));
        }
        let leaf = slot.party.leaf()?;
        if !slot.path.verify(&Poseidon, leaf, commitment.root) {
            return Err(MithrilError::NotInTree(i));
        }
        if !slot.signature.verify(&slot.party.key, signed) {
            return Err(MithrilError::InvalidSignature { slot: i });
        }
    }
    for slot in &cert.indices {
        let signer = &cert.signers[slot.signer];
        if !wins(
            lottery_value(&signer.signature.sigma, slot.index)?,
            signer.party.target,
        ) {
            return Err(MithrilError::LostLottery { index: slot.index });
        }
    }
    Ok(())
}

/// The verifying key of a signer slot (convenience for callers building statements).
pub fn slot_key(slot: &SignerSlot) -> VerifyingKey {
    slot.party.key
}
