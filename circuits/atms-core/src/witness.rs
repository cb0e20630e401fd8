//! The prover's witness, written once for both Schnorr ATMS circuits: the shape, the committee,
//! the statement and one entry per circuit slot, built from a certificate after checking
//! everything the circuit will. Each crate supplies its signatures, its certificate and what a
//! slot holds ([`AtmsProver`]).

use rayon::prelude::*;

use crate::{fill_slots, AtmsCurve, AtmsInstance};

/// The prover's side of one Schnorr ATMS circuit: its signature and certificate types, how a
/// member's signature is checked, and what a circuit slot holds.
pub trait AtmsProver: AtmsCurve {
    /// A member's signature.
    type Signature: Copy + Send + Sync;
    /// A set of signatures on one message by distinct members, sorted by member.
    type Certificate;
    /// The contents of one circuit slot.
    type Slot;

    /// The certificate's message (its field element) and `(member index, signature)` pairs.
    fn certificate(certificate: &Self::Certificate) -> (Self::Field, &[(usize, Self::Signature)]);
    /// Whether member `index`'s signature verifies on `message`; `None` for an index outside the
    /// committee.
    fn verifies(
        committee: &Self::Committee,
        index: usize,
        message: Self::Field,
        signature: &Self::Signature,
    ) -> Option<bool>;
    /// The slots' contents from `filled`, the `(committee index, signature or None)` of every
    /// slot in slot order ([`fill_slots`]).
    fn slots(
        shape: &Self::Shape,
        committee: &Self::Committee,
        filled: Vec<(usize, Option<Self::Signature>)>,
    ) -> Vec<Self::Slot>;
}

/// Everything the prover needs: the statement and the slots' contents.
pub struct AtmsWitness<C: AtmsProver> {
    /// The circuit shape.
    pub shape: C::Shape,
    /// The committee.
    pub committee: C::Committee,
    /// The public statement.
    pub instance: AtmsInstance<C>,
    /// One entry per circuit slot.
    pub slots: Vec<C::Slot>,
}

impl<C: AtmsProver> AtmsWitness<C>
where
    C::Shape: Copy,
    C::Committee: Clone + Sync,
    C::Field: Send + Sync,
{
    /// The witness for proving `certificate` meets `threshold` in a circuit of `shape`. Checks
    /// everything the circuit will (so a bad certificate fails here, with a reason, not in the
    /// prover): the statement ([`AtmsInstance::for_certificate`]) and the slots
    /// ([`fill_slots`]).
    pub fn new(
        shape: C::Shape,
        committee: &C::Committee,
        certificate: &C::Certificate,
        threshold: u64,
    ) -> Result<Self, C::Error> {
        let (message, signatures) = C::certificate(certificate);
        let instance = AtmsInstance::<C>::for_certificate(&shape, committee, message, threshold)?;
        // The signatures are verified in parallel; `fill_slots` reports errors in certificate
        // order, as a sequential check would.
        let verified: Vec<Option<bool>> = signatures
            .par_iter()
            .map(|(i, sig)| C::verifies(committee, *i, message, sig))
            .collect();
        let (n, mode, _) = C::dimensions(&shape);
        let filled = fill_slots(mode, n, signatures, &verified, threshold)?;
        Ok(Self {
            shape,
            committee: committee.clone(),
            instance,
            slots: C::slots(&shape, committee, filled),
        })
    }
}

// Written out: derives would ask `C` itself, not its associated types, to be `Clone`, `Debug`.
impl<C: AtmsProver> Clone for AtmsWitness<C>
where
    C::Shape: Clone,
    C::Committee: Clone,
    C::Slot: Clone,
{
    fn clone(&self) -> Self {
        Self {
            shape: self.shape.clone(),
            committee: self.committee.clone(),
            instance: self.instance,
            slots: self.slots.clone(),
        }
    }
}

impl<C: AtmsProver> std::fmt::Debug for AtmsWitness<C>
where
    C::Shape: std::fmt::Debug,
    C::Committee: std::fmt::Debug,
    C::Slot: std::fmt::Debug,
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AtmsWitness")
            .field("shape", &self.shape)
            .field("committee", &self.committee)
            .field("instance", &self.instance)
            .field("slots", &self.slots)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CheckError, CommitmentMode};

    /// A curve of integers: a key `k` signs message `m` with `k + m`.
    #[derive(Clone, Copy, Debug)]
    struct Toy;

    #[derive(Clone, Copy, Debug)]
    struct ToyShape(usize, CommitmentMode);

    #[derive(Debug, PartialEq)]
    struct ToyError(CheckError);

    impl From<CheckError> for ToyError {
        fn from(e: CheckError) -> Self {
            Self(e)
        }
    }

    impl AtmsCurve for Toy {
        type Field = u64;
        type Committee = Vec<u64>;
        type Shape = ToyShape;
        type Error = ToyError;

        fn message_to_field(message: &[u8]) -> u64 {
            message.len() as u64
        }
        fn commitment(committee: &Vec<u64>, _: CommitmentMode) -> u64 {
            committee.iter().sum()
        }
        fn members(committee: &Vec<u64>) -> usize {
            committee.len()
        }
        fn dimensions(shape: &ToyShape) -> (usize, CommitmentMode, u32) {
            (shape.0, shape.1, 10)
        }
        const K_RANGE: std::ops::RangeInclusive<u32> = 10..=10;
    }

    impl AtmsProver for Toy {
        type Signature = u64;
        type Certificate = (u64, Vec<(usize, u64)>);
        type Slot = (usize, Option<u64>, usize);

        fn certificate(certificate: &Self::Certificate) -> (u64, &[(usize, u64)]) {
            (certificate.0, &certificate.1)
        }
        fn verifies(committee: &Vec<u64>, index: usize, message: u64, sig: &u64) -> Option<bool> {
            committee.get(index).map(|k| k + message == *sig)
        }
        fn slots(
            shape: &ToyShape,
            _: &Vec<u64>,
            filled: Vec<(usize, Option<u64>)>,
        ) -> Vec<Self::Slot> {
            filled.into_iter().map(|(i, s)| (i, s, shape.0)).collect()
        }
    }

    #[test]
    fn a_witness_fills_the_slots_and_names_the_first_bad_signature() {
        let committee = vec![10, 20, 30, 40];
        let merkle = ToyShape(4, CommitmentMode::Merkle { slots: 3 });
        let good = (5, vec![(1, 25), (3, 45)]);
        let witness = AtmsWitness::<Toy>::new(merkle, &committee, &good, 2).unwrap();
        assert_eq!(witness.instance.commitment, 100);
        assert_eq!(witness.instance.message, 5);
        assert_eq!(
            witness.slots,
            [(0, None, 4), (1, Some(25), 4), (3, Some(45), 4)]
        );
        // One thing changed at a time: a signature, a member, the threshold, the order.
        let cases = [
            (
                (5, vec![(1, 25), (3, 46)]),
                2,
                CheckError::InvalidSignature(1),
            ),
            (
                (5, vec![(1, 25), (4, 45)]),
                2,
                CheckError::NotInCommittee(1),
            ),
            (
                good.clone(),
                3,
                CheckError::BelowThreshold {
                    count: 2,
                    threshold: 3,
                },
            ),
            (
                (5, vec![(3, 45), (1, 25)]),
                2,
                CheckError::DuplicateSigner(1),
            ),
        ];
        for (certificate, threshold, error) in cases {
            let got = AtmsWitness::<Toy>::new(merkle, &committee, &certificate, threshold);
            assert_eq!(got.err(), Some(ToyError(error)));
        }
    }
}
