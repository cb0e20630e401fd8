//! The checks of a circuit's shape, statement and certificate that both Schnorr ATMS circuits
//! make before proving, and the slots a certificate fills. Each crate keeps its own types (its
//! field, its keys, its signatures); its error enum carries a [`CheckError`] whole.

use std::ops::RangeInclusive;

use thiserror::Error;

use crate::CommitmentMode;

/// Why a shape, a statement or a certificate does not fit.
#[derive(Debug, Error, Clone, Copy, PartialEq, Eq)]
pub enum CheckError {
    /// A committee needs at least one member.
    #[error("the committee is empty")]
    EmptyCommittee,
    /// Merkle mode needs between 1 and n slots.
    #[error("{slots} signer slots do not fit a committee of {n}")]
    BadSlots {
        /// Slots asked for.
        slots: usize,
        /// Committee size.
        n: usize,
    },
    /// k outside the circuit's range.
    #[error("k = {k} is outside {min}..={max}")]
    BadK {
        /// The k asked for.
        k: u32,
        /// The smallest k the circuit takes.
        min: u32,
        /// The largest.
        max: u32,
    },
    /// The committee does not match the shape.
    #[error("the committee has {got} members, the circuit shape {expected}")]
    CommitteeSize {
        /// Shape's n.
        expected: usize,
        /// Committee's size.
        got: usize,
    },
    /// A threshold of 0: met by no signature at all, it would certify any message.
    #[error("a threshold of 0 certifies anything: the threshold must be at least 1")]
    ThresholdZero,
    /// The threshold exceeds the slots.
    #[error("threshold {threshold} is above the {slots} signature slots")]
    ThresholdTooLarge {
        /// The threshold.
        threshold: u64,
        /// Number of slots.
        slots: usize,
    },
    /// Fewer valid signatures than the threshold.
    #[error("{count} valid signatures are below the threshold {threshold}")]
    BelowThreshold {
        /// Valid signatures.
        count: usize,
        /// Threshold.
        threshold: u64,
    },
    /// More signatures than slots.
    #[error("{signatures} signatures do not fit {slots} slots")]
    TooManySignatures {
        /// Signatures given.
        signatures: usize,
        /// Slots available.
        slots: usize,
    },
    /// A signature's key is not a committee member (its input position).
    #[error("signature {0} is by a key outside the committee")]
    NotInCommittee(usize),
    /// Two signatures by the same member (its committee index).
    #[error("member {0} signed twice")]
    DuplicateSigner(usize),
    /// A signature does not verify (its input position).
    #[error("signature {0} does not verify for this message")]
    InvalidSignature(usize),
}

/// The curve-dependent side of one Schnorr ATMS circuit, as its statement needs it: the
/// circuit's field, how message bytes map to it, the committee's commitment, the shape's size,
/// and the crate's error type.
pub trait AtmsCurve {
    /// The circuit's field (the public inputs').
    type Field: Copy + Eq + std::fmt::Debug + From<u64>;
    /// The committee as the crate holds it.
    type Committee;
    /// The circuit's shape.
    type Shape;
    /// The crate's error, which carries a [`CheckError`].
    type Error: From<CheckError>;

    /// The message bytes as the field element a member signs.
    fn message_to_field(message: &[u8]) -> Self::Field;
    /// The committee's commitment in `mode`.
    fn commitment(committee: &Self::Committee, mode: CommitmentMode) -> Self::Field;
    /// The number of committee members.
    fn members(committee: &Self::Committee) -> usize;
    /// The shape's committee size, commitment mode and k.
    fn dimensions(shape: &Self::Shape) -> (usize, CommitmentMode, u32);
    /// The k the circuit takes.
    const K_RANGE: RangeInclusive<u32>;
}

/// The public statement of a Schnorr ATMS circuit, in instance order `[commitment, message,
/// threshold]`.
pub struct AtmsInstance<C: AtmsCurve> {
    /// The committee commitment (flat hash or Merkle root).
    pub commitment: C::Field,
    /// The signed message as a field element ([`AtmsCurve::message_to_field`]).
    pub message: C::Field,
    /// The threshold t: at least t valid signatures.
    pub threshold: u64,
}

impl<C: AtmsCurve> AtmsInstance<C> {
    /// Offset of the commitment in the instance column.
    pub const COMMITMENT: usize = 0;
    /// Offset of the message.
    pub const MESSAGE: usize = 1;
    /// Offset of the threshold.
    pub const THRESHOLD: usize = 2;
    /// The number of public inputs (one instance column).
    pub const NUM_PUBLIC_INPUTS: usize = 3;

    /// The instance column, in offset order.
    pub fn to_public_inputs(&self) -> Vec<C::Field> {
        vec![
            self.commitment,
            self.message,
            C::Field::from(self.threshold),
        ]
    }

    /// The statement a verifier builds from what it trusts: the committee (its commitment in
    /// `shape`'s mode), the message bytes (signed as [`AtmsCurve::message_to_field`]) and the
    /// threshold. Nothing comes from the prover.
    pub fn from_trusted(
        shape: &C::Shape,
        committee: &C::Committee,
        message: &[u8],
        threshold: u64,
    ) -> Result<Self, C::Error> {
        let (n, mode, _) = C::dimensions(shape);
        check_trusted(n, C::members(committee), threshold)?;
        let instance =
            Self::from_trusted_commitment(C::commitment(committee, mode), message, threshold);
        instance.validate(shape)?;
        Ok(instance)
    }

    /// The statement from a commitment the verifier trusts (e.g. one a contract stores or a
    /// script holds as a parameter), the message bytes and the threshold.
    pub fn from_trusted_commitment(commitment: C::Field, message: &[u8], threshold: u64) -> Self {
        Self {
            commitment,
            message: C::message_to_field(message),
            threshold,
        }
    }

    /// The prover's statement for a certificate of `message` (its field element) and the
    /// threshold it claims, after checking the shape ([`check_shape`]), the committee's size and
    /// the threshold against the slots.
    pub fn for_certificate(
        shape: &C::Shape,
        committee: &C::Committee,
        message: C::Field,
        threshold: u64,
    ) -> Result<Self, C::Error> {
        let (n, mode, k) = C::dimensions(shape);
        check_shape(n, mode, k, C::K_RANGE)?;
        check_committee_size(n, C::members(committee))?;
        let instance = Self {
            commitment: C::commitment(committee, mode),
            message,
            threshold,
        };
        instance.validate(shape)?;
        Ok(instance)
    }

    /// Checks the statement is meaningful for `shape` ([`check_threshold`]).
    pub fn validate(&self, shape: &C::Shape) -> Result<(), C::Error> {
        let (n, mode, _) = C::dimensions(shape);
        Ok(check_threshold(self.threshold, slot_count(mode, n))?)
    }
}

// Written out: derives would ask `C` itself, not its field, to be `Clone`, `Debug`, ...
impl<C: AtmsCurve> Clone for AtmsInstance<C> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<C: AtmsCurve> Copy for AtmsInstance<C> {}
impl<C: AtmsCurve> PartialEq for AtmsInstance<C> {
    fn eq(&self, other: &Self) -> bool {
        (self.commitment, self.message, self.threshold)
            == (other.commitment, other.message, other.threshold)
    }
}
impl<C: AtmsCurve> Eq for AtmsInstance<C> {}
impl<C: AtmsCurve> std::fmt::Debug for AtmsInstance<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AtmsInstance")
            .field("commitment", &self.commitment)
            .field("message", &self.message)
            .field("threshold", &self.threshold)
            .finish()
    }
}

/// Writes a circuit crate's side of the shared statement once: the shape's `slots`, `depth` and
/// `validate` (its `k` range), the [`AtmsCurve`] marker `$curve` over `$field`, and
/// `pub type AtmsInstance = atms_core::AtmsInstance<$curve>`. The shape has fields `n`, `mode`,
/// `k`; the committee `keys()` and `commitment(mode)`; `$message` maps message bytes to the field.
#[macro_export]
macro_rules! atms_statement {
    (
        $(#[$doc:meta])*
        curve: $curve:ident,
        field: $field:ty,
        shape: $shape:ty,
        committee: $committee:ty,
        error: $error:ty,
        k: $ks:expr,
        message: $message:path $(,)?
    ) => {
        impl $shape {
            /// Number of signature slots in the circuit.
            pub fn slots(&self) -> usize {
                $crate::slot_count(self.mode, self.n)
            }

            /// Merkle depth for the committee (at least 1).
            pub fn depth(&self) -> usize {
                $crate::committee_depth(self.n)
            }

            /// Checks the shape is usable ([`atms_core::check_shape`]).
            pub fn validate(&self) -> Result<(), $error> {
                let ks = <$curve as $crate::AtmsCurve>::K_RANGE;
                Ok($crate::check_shape(self.n, self.mode, self.k, ks)?)
            }
        }

        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct $curve;

        impl $crate::AtmsCurve for $curve {
            type Field = $field;
            type Committee = $committee;
            type Shape = $shape;
            type Error = $error;

            fn message_to_field(message: &[u8]) -> $field {
                $message(message)
            }
            fn commitment(committee: &$committee, mode: $crate::CommitmentMode) -> $field {
                committee.commitment(mode)
            }
            fn members(committee: &$committee) -> usize {
                committee.keys().len()
            }
            fn dimensions(shape: &$shape) -> (usize, $crate::CommitmentMode, u32) {
                (shape.n, shape.mode, shape.k)
            }
            const K_RANGE: std::ops::RangeInclusive<u32> = $ks;
        }

        /// The public statement, in instance order `[commitment, message, threshold]`
        /// ([`atms_core::AtmsInstance`]).
        pub type AtmsInstance = $crate::AtmsInstance<$curve>;
    };
}

/// Number of signature slots of a circuit for `n` members: every member in flat mode, the
/// Merkle mode's `slots` otherwise.
pub fn slot_count(mode: CommitmentMode, n: usize) -> usize {
    match mode {
        CommitmentMode::Flat => n,
        CommitmentMode::Merkle { slots } => slots,
    }
}

/// Checks a shape is usable: a committee, Merkle slots between 1 and `n`, and `k` in `ks`.
pub fn check_shape(
    n: usize,
    mode: CommitmentMode,
    k: u32,
    ks: RangeInclusive<u32>,
) -> Result<(), CheckError> {
    if n == 0 {
        return Err(CheckError::EmptyCommittee);
    }
    if let CommitmentMode::Merkle { slots } = mode {
        if slots == 0 || slots > n {
            return Err(CheckError::BadSlots { slots, n });
        }
    }
    if !ks.contains(&k) {
        return Err(CheckError::BadK {
            k,
            min: *ks.start(),
            max: *ks.end(),
        });
    }
    Ok(())
}

/// Checks the committee has the shape's `n` members.
pub fn check_committee_size(n: usize, members: usize) -> Result<(), CheckError> {
    if members != n {
        return Err(CheckError::CommitteeSize {
            expected: n,
            got: members,
        });
    }
    Ok(())
}

/// Checks what a verifier asks: a committee of the shape's `n` members and a threshold of at
/// least 1 (a threshold of 0 is met by a certificate of no signature: it certifies anything).
pub fn check_trusted(n: usize, members: usize, threshold: u64) -> Result<(), CheckError> {
    check_committee_size(n, members)?;
    if threshold == 0 {
        return Err(CheckError::ThresholdZero);
    }
    Ok(())
}

/// Checks a statement is meaningful for a circuit of `slots` slots: the threshold is at most the
/// number of slots (a larger one could never be met). A threshold of 0 is a statement a prover
/// may make (a committee chunk without signers, joined with others); a verifier never asks for
/// it ([`check_trusted`]).
pub fn check_threshold(threshold: u64, slots: usize) -> Result<(), CheckError> {
    if threshold > slots as u64 {
        return Err(CheckError::ThresholdTooLarge { threshold, slots });
    }
    Ok(())
}

/// The slots a certificate fills, as `(committee index, signature or None)` in slot order,
/// after checking everything the circuit will: each signature's member exists and its signature
/// verifies (`verified[pos]`: `None` for an index outside the committee), the indices strictly
/// increase (no member twice), at least `threshold` of them and no more than the slots. Errors
/// name the first offending signature in certificate order.
pub fn fill_slots<S: Copy>(
    mode: CommitmentMode,
    n: usize,
    signatures: &[(usize, S)],
    verified: &[Option<bool>],
    threshold: u64,
) -> Result<Vec<(usize, Option<S>)>, CheckError> {
    for (pos, ((i, _), ok)) in signatures.iter().zip(verified).enumerate() {
        match ok {
            None => return Err(CheckError::NotInCommittee(pos)),
            Some(false) => return Err(CheckError::InvalidSignature(pos)),
            Some(true) => {}
        }
        if pos > 0 && signatures[pos - 1].0 >= *i {
            return Err(CheckError::DuplicateSigner(*i));
        }
    }
    let count = signatures.len();
    if (count as u64) < threshold {
        return Err(CheckError::BelowThreshold { count, threshold });
    }
    let slots = slot_count(mode, n);
    if count > slots {
        return Err(CheckError::TooManySignatures {
            signatures: count,
            slots,
        });
    }
    let signers: Vec<usize> = signatures.iter().map(|(i, _)| *i).collect();
    let indices = crate::slot_indices(mode, n, &signers)
        .expect("the signers fit the slots, the slots the committee");
    Ok(indices
        .into_iter()
        .map(|index| {
            let signature = signatures
                .iter()
                .find(|(i, _)| *i == index)
                .map(|(_, s)| *s);
            (index, signature)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_out_of_range_are_refused() {
        let merkle = |slots| CommitmentMode::Merkle { slots };
        assert_eq!(check_shape(3, merkle(2), 12, 10..=26), Ok(()));
        assert_eq!(
            check_shape(0, CommitmentMode::Flat, 12, 10..=26),
            Err(CheckError::EmptyCommittee)
        );
        assert_eq!(
            check_shape(3, merkle(0), 12, 10..=26),
            Err(CheckError::BadSlots { slots: 0, n: 3 })
        );
        assert_eq!(
            check_shape(3, merkle(4), 12, 10..=26),
            Err(CheckError::BadSlots { slots: 4, n: 3 })
        );
        assert_eq!(
            check_shape(3, merkle(3), 26, 10..=25),
            Err(CheckError::BadK {
                k: 26,
                min: 10,
                max: 25
            })
        );
    }

    #[test]
    fn statements_a_verifier_refuses() {
        assert_eq!(check_trusted(3, 3, 1), Ok(()));
        assert_eq!(
            check_trusted(3, 4, 1),
            Err(CheckError::CommitteeSize {
                expected: 3,
                got: 4
            })
        );
        assert_eq!(check_trusted(3, 3, 0), Err(CheckError::ThresholdZero));
        assert_eq!(check_threshold(3, 3), Ok(()));
        assert_eq!(
            check_threshold(4, 3),
            Err(CheckError::ThresholdTooLarge {
                threshold: 4,
                slots: 3
            })
        );
    }

    #[test]
    fn certificates_fill_slots_or_name_the_first_fault() {
        let merkle = CommitmentMode::Merkle { slots: 3 };
        let sigs = [(1, 'b'), (4, 'e')];
        let ok = [Some(true), Some(true)];
        assert_eq!(
            fill_slots(merkle, 5, &sigs, &ok, 2),
            Ok(vec![(0, None), (1, Some('b')), (4, Some('e'))])
        );
        assert_eq!(
            fill_slots(CommitmentMode::Flat, 5, &sigs, &ok, 2).map(|s| s.len()),
            Ok(5)
        );
        let fault = |sigs: &[(usize, char)], verified: &[Option<bool>], t| {
            fill_slots(merkle, 5, sigs, verified, t).unwrap_err()
        };
        assert_eq!(
            fault(&sigs, &[Some(true), None], 2),
            CheckError::NotInCommittee(1)
        );
        assert_eq!(
            fault(&sigs, &[Some(false), Some(true)], 2),
            CheckError::InvalidSignature(0)
        );
        assert_eq!(
            fault(&[(1, 'b'), (1, 'b')], &ok, 2),
            CheckError::DuplicateSigner(1)
        );
        assert_eq!(
            fault(&[(4, 'e'), (1, 'b')], &ok, 2),
            CheckError::DuplicateSigner(1)
        );
        assert_eq!(
            fault(&sigs, &ok, 3),
            CheckError::BelowThreshold {
                count: 2,
                threshold: 3
            }
        );
        let four = [(0, 'a'), (1, 'b'), (2, 'c'), (3, 'd')];
        assert_eq!(
            fault(&four, &[Some(true); 4], 1),
            CheckError::TooManySignatures {
                signatures: 4,
                slots: 3
            }
        );
    }
}
