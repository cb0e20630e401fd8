//! The native scheme: committees, their commitments, certificates.

use rayon::prelude::*;
use tms_gadgets::{
    hash::{NativeHash, RescuePrime},
    merkle::MerkleTree,
    signature::schnorr::{Signature, VerifyingKey},
    Fr,
};

use crate::error::AtmsError;

pub use atms_core::{committee_depth, CheckError, CommitmentMode};

/// An ordered committee of distinct Grumpkin keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Committee {
    keys: Vec<VerifyingKey>,
}

impl Committee {
    /// Registers members: checks every key's proof of possession
    /// ([`VerifyingKey::verify_possession`], Rescue-Prime challenges), then what [`Self::new`]
    /// checks. A key whose registrant cannot sign for it is refused.
    pub fn register(members: &[(VerifyingKey, Signature)]) -> Result<Self, AtmsError> {
        for (key, _) in members {
            coords(key)?;
        }
        // Independent checks, in parallel; the first failure (in committee order) is reported.
        let valid: Vec<bool> = members
            .par_iter()
            .map(|(key, pop)| key.verify_possession(&RescuePrime, pop))
            .collect();
        if let Some(i) = valid.iter().position(|ok| !ok) {
            return Err(AtmsError::InvalidPossession(i));
        }
        Self::new(members.iter().map(|(k, _)| *k).collect())
    }

    /// A committee of keys **without the proof-of-possession check**, for keys made in this
    /// process (tests, benchmarks, the demo); committees of other people's keys come from
    /// [`Self::register`]. Refuses an empty committee, identity keys and repeated keys. (The
    /// circuit does not rely on possession: no key, registered or not, can make it unprovable;
    /// see `tms_gadgets::curve`'s "Keys nobody vouched for".)
    pub fn new(keys: Vec<VerifyingKey>) -> Result<Self, AtmsError> {
        if keys.is_empty() {
            return Err(AtmsError::Check(CheckError::EmptyCommittee));
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

    /// The committee split into `count` chunks of consecutive members whose Merkle trees are the
    /// subtrees of this committee's tree `log2 count` levels below its root: chunk `i` holds
    /// members `i s .. (i + 1) s` with `s = 2^depth / count`. Proving each chunk in Merkle mode
    /// and joining the proofs (`tms-aggregation`'s `chunks`) proves the whole committee.
    ///
    /// Refuses a `count` that is not a power of two of at least 2, and a split where a chunk
    /// would be empty or its own tree shallower than its subtree (the last chunk holds at most
    /// half of `s`): its root would not be the subtree's.
    pub fn chunks(&self, count: usize) -> Result<Vec<Committee>, AtmsError> {
        let n = self.keys.len();
        let bad = |reason: String| AtmsError::BadChunks { n, count, reason };
        if count < 2 || !count.is_power_of_two() {
            return Err(bad("a power of two, at least 2, is needed".into()));
        }
        let depth = committee_depth(n);
        let levels = count.trailing_zeros() as usize;
        if levels >= depth {
            return Err(bad(format!("the tree has depth {depth}")));
        }
        let size = 1usize << (depth - levels);
        let chunks: Vec<Committee> = self
            .keys
            .chunks(size)
            .map(|keys| Committee {
                keys: keys.to_vec(),
            })
            .collect();
        let last = chunks.last().expect("n > 0").keys.len();
        if chunks.len() != count || committee_depth(last) != depth - levels {
            return Err(bad(format!(
                "chunks of {size} leave {last} members in the last one; its tree is not a \
                 subtree of depth {}",
                depth - levels
            )));
        }
        Ok(chunks)
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

    /// The Merkle tree of the committee (depth [`committee_depth`]). It hashes every
    /// member: build it once and take all paths from it.
    pub fn tree(&self) -> MerkleTree<RescuePrime> {
        let leaves = (0..self.keys.len()).map(|i| self.leaf(i)).collect();
        MerkleTree::with_depth(RescuePrime, leaves, committee_depth(self.keys.len()))
            .expect("n fits its own depth")
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
        let signatures = atms_core::index_signatures(&committee.keys, signatures, |key, sig| {
            key.verify(&RescuePrime, message, sig)
        })?;
        Ok(Self {
            message,
            signatures,
        })
    }

    /// The signatures of members `first .. first + len`, indexed within that range: the
    /// certificate of the chunk of [`Committee::chunks`] that starts at member `first`.
    pub fn restricted_to(&self, first: usize, len: usize) -> Self {
        Self {
            message: self.message,
            signatures: self
                .signatures
                .iter()
                .filter(|(i, _)| (first..first + len).contains(i))
                .map(|(i, sig)| (i - first, *sig))
                .collect(),
        }
    }
}
