//! The native scheme: committees, their commitments, certificates.

use tms_gadgets::{
    hash::{NativeHash, RescuePrime},
    merkle::MerkleTree,
    schnorr::{Signature, VerifyingKey},
    Fr,
};

use crate::{AtmsError, AtmsInstance, AtmsShape, AtmsWitness, CommitmentMode};

/// An ordered committee of distinct Grumpkin keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Committee {
    keys: Vec<VerifyingKey>,
}

/// The contents of one circuit slot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotWitness {
    /// Committee index of the slot's key (flat mode: the slot's position).
    pub index: usize,
    /// The member's signature, or `None` for a disabled slot.
    pub signature: Option<Signature>,
}

impl Committee {
    /// A committee; refuses an empty one, identity keys and repeated keys.
    pub fn new(keys: Vec<VerifyingKey>) -> Result<Self, AtmsError> {
        if keys.is_empty() {
            return Err(AtmsError::EmptyCommittee);
        }
        for (i, k) in keys.iter().enumerate() {
            coords(k)?;
            if let Some(j) = keys[..i].iter().position(|o| o == k) {
                return Err(AtmsError::DuplicateMember {
                    first: j,
                    second: i,
                });
            }
        }
        Ok(Self { keys })
    }

    /// The keys in committee order.
    pub fn keys(&self) -> &[VerifyingKey] {
        &self.keys
    }

    /// The flat commitment: the Rescue-Prime fixed-length hash of all coordinates.
    pub fn flat_commitment(&self) -> Fr {
        let coordinates: Vec<Fr> = self
            .keys
            .iter()
            .flat_map(|k| coords(k).expect("checked"))
            .collect();
        RescuePrime.hash_leaf(&coordinates).expect("non-empty")
    }

    /// The Merkle leaf of member `i`.
    pub fn leaf(&self, i: usize) -> Fr {
        RescuePrime
            .hash_leaf(&coords(&self.keys[i]).expect("checked"))
            .expect("non-empty")
    }

    /// The Merkle tree of the committee (depth as in [`AtmsShape::depth`]). It hashes every
    /// member: build it once and take all paths from it.
    pub fn tree(&self) -> MerkleTree<RescuePrime> {
        let leaves = (0..self.keys.len()).map(|i| self.leaf(i)).collect();
        let depth = AtmsShape {
            n: self.keys.len(),
            mode: CommitmentMode::Flat,
            k: 10,
            verification: crate::Verification::PerSignature,
        }
        .depth();
        MerkleTree::with_depth(RescuePrime, leaves, depth).expect("n fits its own depth")
    }

    /// The commitment in `mode`.
    pub fn commitment(&self, mode: CommitmentMode) -> Fr {
        match mode {
            CommitmentMode::Flat => self.flat_commitment(),
            CommitmentMode::Merkle { .. } => self.tree().root(),
        }
    }
}

pub(crate) fn coords(k: &VerifyingKey) -> Result<[Fr; 2], AtmsError> {
    use tms_gadgets::halo2_base::halo2_proofs::halo2curves::{
        group::prime::PrimeCurveAffine, CurveAffine,
    };
    if bool::from(k.0.is_identity()) {
        return Err(tms_gadgets::GadgetError::IdentityPoint.into());
    }
    let c = k.0.coordinates().expect("not the identity");
    Ok([*c.x(), *c.y()])
}

/// A set of valid signatures on one message by distinct committee members, sorted by member.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The message.
    pub message: Fr,
    /// `(member index, signature)`, strictly increasing indices.
    pub signatures: Vec<(usize, Signature)>,
}

impl Certificate {
    /// Checks each signature natively and maps it to its member: refuses unknown keys, a
    /// member signing twice, and invalid signatures (naming the offending input position).
    pub fn aggregate(
        committee: &Committee,
        message: Fr,
        signatures: &[(VerifyingKey, Signature)],
    ) -> Result<Self, AtmsError> {
        let mut indexed = Vec::with_capacity(signatures.len());
        for (pos, (key, sig)) in signatures.iter().enumerate() {
            let index = committee
                .keys
                .iter()
                .position(|k| k == key)
                .ok_or(AtmsError::NotInCommittee(pos))?;
            if !key.verify(&RescuePrime, message, sig) {
                return Err(AtmsError::InvalidSignature(pos));
            }
            if indexed.iter().any(|(i, _)| *i == index) {
                return Err(AtmsError::DuplicateSigner(index));
            }
            indexed.push((index, *sig));
        }
        indexed.sort_by_key(|(i, _)| *i);
        Ok(Self {
            message,
            signatures: indexed,
        })
    }
}

impl AtmsWitness {
    /// The witness for proving `certificate` meets `threshold` in a circuit of `shape`. Checks
    /// everything the circuit will (so a bad certificate fails here, with a reason, not in the
    /// prover).
    pub fn new(
        shape: AtmsShape,
        committee: &Committee,
        certificate: &Certificate,
        threshold: u64,
    ) -> Result<Self, AtmsError> {
        shape.validate()?;
        if committee.keys.len() != shape.n {
            return Err(AtmsError::CommitteeSize {
                expected: shape.n,
                got: committee.keys.len(),
            });
        }
        let instance = AtmsInstance {
            commitment: committee.commitment(shape.mode),
            message: certificate.message,
            threshold,
        };
        instance.validate(&shape)?;
        for (pos, (i, sig)) in certificate.signatures.iter().enumerate() {
            let key = committee
                .keys
                .get(*i)
                .ok_or(AtmsError::NotInCommittee(pos))?;
            if !key.verify(&RescuePrime, certificate.message, sig) {
                return Err(AtmsError::InvalidSignature(pos));
            }
            if pos > 0 && certificate.signatures[pos - 1].0 >= *i {
                return Err(AtmsError::DuplicateSigner(*i));
            }
        }
        let count = certificate.signatures.len();
        if (count as u64) < threshold {
            return Err(AtmsError::BelowThreshold { count, threshold });
        }
        let slots = match shape.mode {
            CommitmentMode::Flat => (0..shape.n)
                .map(|index| SlotWitness {
                    index,
                    signature: certificate
                        .signatures
                        .iter()
                        .find(|(i, _)| *i == index)
                        .map(|(_, s)| *s),
                })
                .collect(),
            CommitmentMode::Merkle { slots } => {
                if count > slots {
                    return Err(AtmsError::TooManySignatures {
                        signatures: count,
                        slots,
                    });
                }
                // Signers first, then distinct non-signers as disabled slots, sorted by index.
                let mut filled: Vec<SlotWitness> = certificate
                    .signatures
                    .iter()
                    .map(|(index, sig)| SlotWitness {
                        index: *index,
                        signature: Some(*sig),
                    })
                    .collect();
                let mut spare =
                    (0..shape.n).filter(|i| !certificate.signatures.iter().any(|(j, _)| j == i));
                while filled.len() < slots {
                    filled.push(SlotWitness {
                        index: spare.next().expect("slots <= n"),
                        signature: None,
                    });
                }
                filled.sort_by_key(|s| s.index);
                filled
            }
        };
        Ok(Self {
            shape,
            committee: committee.clone(),
            instance,
            slots,
        })
    }
}
