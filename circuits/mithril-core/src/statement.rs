//! The circuit's shape and public statement, written once for both curves
//! ([`crate::mithril_statement!`] declares them in each circuit crate, over its field, curve and
//! registration), and the checks a witness makes of a certificate's slots before the circuit
//! sees them ([`check_slots`], [`pad_slots`]).

use std::ops::RangeInclusive;

/// Why a shape cannot be built: no slot of a kind, a depth or `k` out of `depths` or `ks`.
pub fn check_shape(
    (signer_slots, index_slots, depth, k): (usize, usize, usize, u32),
    depths: RangeInclusive<usize>,
    ks: RangeInclusive<u32>,
) -> Result<(), String> {
    if signer_slots == 0 || index_slots == 0 {
        return Err("at least one signer slot and one index slot".into());
    }
    if !depths.contains(&depth) {
        return Err(format!("depth {depth}"));
    }
    if !ks.contains(&k) {
        return Err(format!("k = {k} is outside {}..={}", ks.start(), ks.end()));
    }
    Ok(())
}

/// Why a statement does not fit a shape: its registration's depth is not the circuit's, or its
/// quorum `k` is not the number of index slots.
pub fn check_statement(
    (depth, quorum): (usize, u64),
    (shape_depth, index_slots): (usize, usize),
) -> Result<(), String> {
    if depth != shape_depth {
        return Err(format!(
            "registration depth {depth} vs circuit depth {shape_depth}"
        ));
    }
    if quorum != index_slots as u64 {
        return Err(format!("quorum k = {quorum} vs {index_slots} index slots"));
    }
    Ok(())
}

/// Why a certificate's slots do not fit a shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SlotError {
    /// Not exactly the index slots, or no signer or more than the signer slots.
    Mismatch(String),
    /// Index slot `index_slot` names signer slot `signer_slot`, which the certificate lacks.
    SignerOutOfRange {
        /// The index slot.
        index_slot: usize,
        /// The signer slot it names.
        signer_slot: usize,
    },
}

/// Checks a certificate of `index_signers` (the signer slot each index slot names) over
/// `signers` signers fits a shape of `index_slots` and `signer_slots`.
pub fn check_slots(
    (index_slots, signer_slots): (usize, usize),
    index_signers: &[usize],
    signers: usize,
) -> Result<(), SlotError> {
    if index_signers.len() != index_slots {
        return Err(SlotError::Mismatch(format!(
            "{} indices for {index_slots} index slots",
            index_signers.len()
        )));
    }
    if signers == 0 || signers > signer_slots {
        return Err(SlotError::Mismatch(format!(
            "{signers} signers for {signer_slots} signer slots"
        )));
    }
    match index_signers.iter().position(|&s| s >= signers) {
        Some(index_slot) => Err(SlotError::SignerOutOfRange {
            index_slot,
            signer_slot: index_signers[index_slot],
        }),
        None => Ok(()),
    }
}

/// Pads `slots` to `n` with copies of its last slot (unused signer slots repeat a used one);
/// `slots` is not empty ([`check_slots`] refuses a certificate without signers).
pub fn pad_slots<T: Clone>(slots: &mut Vec<T>, n: usize) {
    if let Some(last) = slots.last().cloned() {
        slots.resize(n, last);
    }
}

/// Declares a SNARK-Mithril circuit crate's shape, public statement, index slot and witness
/// over its `field`, its curve `point`, its registration and its native scheme `stm`
/// (`MithrilShape`, `MithrilInstance`, `PreparedIndex`, `MithrilWitness` with the `witness`
/// fields the crate adds, each made from the statement by its function, and `prepare_slots`, a
/// certificate's slots as the circuit reads them), written once for both curves. The crate
/// supplies `PreparedSigner` (with `target` and `signature.sigma`), `prepare_signer` (a signer
/// slot as the circuit reads it) and an `error` with `BadShape(String)`,
/// `ShapeMismatch(String)` and `From<StmError>`; the macro writes its `From<SlotError>`.
#[macro_export]
macro_rules! mithril_statement {
    (
        field: $field:ty,
        point: $point:ty,
        registration: $registration:ty,
        commitment: $commitment:ty,
        stm: $stm:ty,
        error: $error:ty,
        message: $message:path,
        depths: $depths:expr,
        ks: $ks:expr,
        shape: [$(#[$shape_attr:meta])*],
        instance: [$(#[$instance_doc:meta])*],
        witness: [$($(#[$extra_doc:meta])* $extra:ident: $extra_ty:ty = $extra_init:path),* $(,)?] $(,)?
    ) => {
        /// The circuit's shape: everything keygen depends on.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $(#[$shape_attr])*
        pub struct MithrilShape {
            /// Signer slots (each: Merkle path, DLEQ proof).
            pub signer_slots: usize,
            /// Index slots: exactly the quorum `k` of the parameters.
            pub index_slots: usize,
            /// Registration tree depth.
            pub depth: usize,
            /// log2 of the number of rows.
            pub k: u32,
        }

        impl MithrilShape {
            /// Checks the shape can be built ([`mithril_core::statement::check_shape`]).
            pub fn validate(&self) -> Result<(), $error> {
                let dimensions = (self.signer_slots, self.index_slots, self.depth, self.k);
                $crate::statement::check_shape(dimensions, $depths, $ks).map_err(<$error>::BadShape)
            }
        }

        $(#[$instance_doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct MithrilInstance {
            /// Root, total stake, depth, parameters.
            pub commitment: $commitment,
            /// The application message (the signed element is `commitment.message(message)`).
            pub message: $field,
        }

        impl MithrilInstance {
            /// Offset of the registration digest in the instance column.
            pub const DIGEST: usize = 0;
            /// Offset of the message.
            pub const MESSAGE: usize = 1;
            /// The number of public inputs (one instance column).
            pub const NUM_PUBLIC_INPUTS: usize = 2;

            /// The statement a verifier builds from what it trusts: the registration and the
            /// message bytes.
            pub fn from_trusted(registration: &$registration, message: &[u8]) -> Self {
                Self {
                    commitment: registration.commitment(),
                    message: $message(message),
                }
            }

            /// Checks the statement fits `shape`: the tree depth and `k` = the number of index
            /// slots ([`mithril_core::statement::check_statement`]).
            pub fn validate(&self, shape: &MithrilShape) -> Result<(), $error> {
                let statement = (self.commitment.depth, self.commitment.params.k());
                $crate::statement::check_statement(statement, (shape.depth, shape.index_slots))
                    .map_err(<$error>::ShapeMismatch)
            }

            /// The instance column: `[registration digest, message]`.
            pub fn to_public_inputs(&self) -> Vec<$field> {
                Self::public_inputs(self.commitment.digest(), self.message)
            }

            /// The instance column of a registration digest a verifier trusts (a contract's, a
            /// script parameter) and an application message.
            pub fn public_inputs(digest: $field, message: $field) -> Vec<$field> {
                vec![digest, message]
            }
        }

        /// An index slot as the circuit reads it: the index, the signer slot it names, and the
        /// values it claims for that slot (the tuple looked up in the table of signer slots).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct PreparedIndex {
            /// The index `j`, as the cell the circuit loads: a field element, so that a test can
            /// play a prover who claims one outside `[0, 2^32)` (an honest index is an integer
            /// below `m`).
            pub index: $field,
            /// The signer slot's number.
            pub signer: usize,
            /// That signer slot's `sigma`.
            pub sigma: $point,
            /// That signer slot's target `T`.
            pub target: $field,
        }

        impl PreparedIndex {
            /// Index `index` claimed by signer slot `signer` of `signers`, with that slot's
            /// values.
            pub fn new(index: u64, signer: usize, signers: &[PreparedSigner]) -> Self {
                let slot = &signers[signer];
                Self {
                    index: <$field>::from(index),
                    signer,
                    sigma: slot.signature.sigma,
                    target: slot.target,
                }
            }
        }

        impl From<$crate::statement::SlotError> for $error {
            fn from(e: $crate::statement::SlotError) -> Self {
                use $crate::statement::SlotError as S;
                match e {
                    S::Mismatch(m) => Self::ShapeMismatch(m),
                    S::SignerOutOfRange {
                        index_slot,
                        signer_slot,
                    } => $crate::stm::StmError::SignerSlotOutOfRange {
                        index_slot,
                        signer_slot,
                    }
                    .into(),
                }
            }
        }

        /// Everything the prover needs. The fields are public so that tests can play a
        /// cheating prover.
        #[derive(Clone, Debug)]
        pub struct MithrilWitness {
            /// The circuit shape.
            pub shape: MithrilShape,
            /// The statement.
            pub instance: MithrilInstance,
            $($(#[$extra_doc])* pub $extra: $extra_ty,)*
            /// Exactly `shape.signer_slots` signer slots.
            pub signers: Vec<PreparedSigner>,
            /// Exactly `shape.index_slots` index slots.
            pub indices: Vec<PreparedIndex>,
        }

        impl MithrilWitness {
            /// The witness of `certificate` for `instance` in `shape`: checks the shape, the
            /// sizes and what each signer slot's preparation reads (not the signatures: the
            /// circuit does) and pads unused signer slots with copies of the last one.
            pub fn new(
                shape: MithrilShape,
                instance: MithrilInstance,
                certificate: &$crate::stm::Certificate<$stm>,
            ) -> Result<Self, $error> {
                shape.validate()?;
                let (signers, indices) = prepare_slots(&shape, &instance, certificate)?;
                Ok(Self {
                    shape,
                    instance,
                    $($extra: $extra_init(&instance)?,)*
                    signers,
                    indices,
                })
            }
        }

        /// `certificate`'s slots as the circuit of `shape` reads them for `instance`: the
        /// statement fits the shape ([`MithrilInstance::validate`]), the sizes are checked
        /// ([`mithril_core::statement::check_slots`]), each signer slot's Merkle path has the
        /// shape's depth and is prepared by the crate's `prepare_signer` (which checks what it
        /// reads), unused signer slots are padded with copies of the last one.
        fn prepare_slots(
            shape: &MithrilShape,
            instance: &MithrilInstance,
            certificate: &$crate::stm::Certificate<$stm>,
        ) -> Result<(Vec<PreparedSigner>, Vec<PreparedIndex>), $error> {
            instance.validate(shape)?;
            let index_signers: Vec<usize> = certificate.indices.iter().map(|s| s.signer).collect();
            $crate::statement::check_slots(
                (shape.index_slots, shape.signer_slots),
                &index_signers,
                certificate.signers.len(),
            )?;
            let mut signers = Vec::with_capacity(shape.signer_slots);
            for (i, slot) in certificate.signers.iter().enumerate() {
                if <$stm as $crate::stm::Stm>::path_len(slot) != shape.depth {
                    return Err($crate::stm::StmError::NotInTree(i).into());
                }
                signers.push(prepare_signer(slot)?);
            }
            $crate::statement::pad_slots(&mut signers, shape.signer_slots);
            let indices = certificate
                .indices
                .iter()
                .map(|slot| PreparedIndex::new(slot.index, slot.signer, &signers))
                .collect();
            Ok((signers, indices))
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_checked_in_order_and_padded_with_the_last() {
        assert_eq!(check_slots((2, 3), &[0, 1], 2), Ok(()));
        assert!(matches!(
            check_slots((3, 3), &[0, 1], 2),
            Err(SlotError::Mismatch(m)) if m == "2 indices for 3 index slots"
        ));
        assert!(matches!(
            check_slots((2, 1), &[0, 0], 2),
            Err(SlotError::Mismatch(m)) if m == "2 signers for 1 signer slots"
        ));
        assert!(matches!(
            check_slots((2, 3), &[0, 0], 0),
            Err(SlotError::Mismatch(_))
        ));
        assert_eq!(
            check_slots((3, 3), &[0, 2, 1], 2),
            Err(SlotError::SignerOutOfRange {
                index_slot: 1,
                signer_slot: 2
            })
        );
        let mut slots = vec![1, 2];
        pad_slots(&mut slots, 4);
        assert_eq!(slots, [1, 2, 2, 2]);
    }

    #[test]
    fn shapes_and_statements_say_what_does_not_fit() {
        assert_eq!(check_shape((1, 1, 1, 10), 1..=32, 10..=25), Ok(()));
        assert!(check_shape((0, 1, 1, 10), 1..=32, 10..=25).is_err());
        assert_eq!(
            check_shape((1, 1, 0, 10), 1..=32, 10..=25),
            Err("depth 0".into())
        );
        assert_eq!(
            check_shape((1, 1, 1, 26), 1..=32, 10..=25),
            Err("k = 26 is outside 10..=25".into())
        );
        assert_eq!(check_statement((3, 5), (3, 5)), Ok(()));
        assert_eq!(
            check_statement((4, 5), (3, 5)),
            Err("registration depth 4 vs circuit depth 3".into())
        );
        assert_eq!(
            check_statement((3, 4), (3, 5)),
            Err("quorum k = 4 vs 5 index slots".into())
        );
    }
}
