//! Chains of mithril-stm certificates on the Cardano backend, extended one epoch at a time: a
//! **step** circuit (KZG over BLS12-381, midnight-circuits' in-circuit verifier) verifies the
//! previous step proof and the new epoch's certificate proof (the mithril-stm mode, in the
//! Poseidon transcript) and exposes the extended chain's statement.
//!
//! **The link.** Epoch `E`'s signers sign the 32 bytes of
//! `link = Poseidon(CHLN_DST, next root, application low, application high, E)` (canonical,
//! little-endian: [`link_message`]): the root of the registration epoch `E + 1` is signed by, the
//! application's 32 bytes (two halves, as mithril-stm splits a message) and the epoch, so a
//! certificate has one place in one chain. The circuit recomputes the link and constrains the
//! certificate's message halves to its canonical bytes.
//!
//! **The statement** (public inputs): the step key's transcript representation (the verifier
//! puts its own), then `[genesis root, last root, application low, application high, epochs]`,
//! then the accumulator that stands for every pairing check deferred so far.
//!
//! The step constrains, for the previous statement `P` and the certificate statement
//! `[root, low, high]`:
//! - the certificate proof verifies under the chain's certificate key (a constant of the step
//!   circuit) for `[root, low, high]`, and `(low, high)` are the halves of the link of
//!   `(next root, application, P.epochs)`;
//! - **base case** (`P.epochs = 0`): the previous proof is not checked (its accumulator is scaled
//!   by zero); genesis is the certificate's root;
//! - **step** (`P.epochs > 0`): the previous proof verifies under the step key of this proof's own
//!   statement, for `P` and the previous accumulator, and `root = P.last root`; genesis carries
//!   over;
//! - the new statement is `[genesis, next root, application, P.epochs + 1]` and the new
//!   accumulator accumulates the previous proof's, the certificate's and the previous one.
//!
//! A verifier that holds the step key (regenerated from the certificate key, or pinned) checks the
//! last step proof for the statement it builds with its own key's representation, and the
//! accumulator's pairing against both keys' fixed commitments: by induction every step proof was
//! verified under that key, and the chain starts at a base case.

use std::collections::BTreeMap;

use ff::{Field, PrimeField};
use group::{Group, GroupEncoding};
use midnight_circuits::{
    ecc::{
        curves::CircuitCurve,
        foreign::weierstrass_chip::{
            nb_foreign_ecc_chip_columns, ForeignWeierstrassEccChip, ForeignWeierstrassEccConfig,
        },
    },
    field::{
        decomposition::{
            chip::{P2RDecompositionChip, P2RDecompositionConfig},
            pow2range::Pow2RangeChip,
        },
        foreign::FieldChip,
        native::NB_ARITH_COLS,
        AssignedNative, NativeChip, NativeConfig, NativeGadget,
    },
    hash::poseidon::{
        PoseidonChip, PoseidonConfig, PoseidonState, NB_POSEIDON_ADVICE_COLS,
        NB_POSEIDON_FIXED_COLS,
    },
    instructions::{
        ArithInstructions, AssignmentInstructions, BinaryInstructions, ControlFlowInstructions,
        DecompositionInstructions, HashInstructions, PublicInputInstructions, ZeroInstructions,
    },
    types::AssignedByte,
    types::{ComposableChip, Instantiable},
    verifier::{
        self, Accumulator, AssignedAccumulator, AssignedVk, BlstrsEmulation, Msm, VerifierGadget,
    },
};
use midnight_curves::{G1Affine, G1Projective};
use midnight_proofs::{
    circuit::{Layouter, SimpleFloorPlanner, Value},
    plonk::{self, Circuit, ConstraintSystem, Error},
    poly::{commitment::Params, EvaluationDomain},
    transcript::{CircuitTranscript, Transcript},
};
use rand::{CryptoRng, RngCore};
use tms_cardano::backend::{Kzg, Params12, Pk, VerifierParams, Vk};

use crate::{
    native::{poseidon, Base},
    stm::{
        native::{dst, message_halves},
        StmInstance,
    },
    MithrilError,
};

/// The emulation the step circuit verifies proofs in: BLS12-381 proofs inside a circuit over
/// BLS12-381's scalar field, G1 arithmetic emulated.
pub type Emulation = BlstrsEmulation;
/// A deferred pairing check (midnight-circuits' accumulator).
pub type ChainAccumulator = Accumulator<Emulation>;
/// The transcript of step and certificate proofs: Poseidon, cheap to replay in a circuit.
pub type ChainTranscript = CircuitTranscript<PoseidonState<Base>>;

type Scalars = NativeGadget<Base, P2RDecompositionChip<Base>, NativeChip<Base>>;
type Curve = ForeignWeierstrassEccChip<Base, G1Projective, G1Projective, Scalars, Scalars>;
type CurveBase = <G1Projective as CircuitCurve>::Base;

/// `CHLN_DST` (ASCII): the domain of a chain link.
pub const DST_CHAIN_LINK: u64 = 0x4348_4C4E_5F44_5354;
/// The name of the step key's fixed commitments in an accumulator.
pub const STEP_KEY: &str = "step";
/// The name of the certificate key's fixed commitments in an accumulator.
pub const CERTIFICATE_KEY: &str = "certificate";
/// Public inputs of the chain's statement (after the step key's representation).
pub const STATEMENT_INPUTS: usize = 5;
/// Bits of the range-check table of the step circuit's decomposition chip.
const RANGE_BITS: u32 = 16;

/// The link a chain certificate signs at `epoch`: `Poseidon(CHLN_DST, next_root, low, high,
/// epoch)` over the application's halves.
pub fn link(next_root: Base, application: &[u8; 32], epoch: u64) -> Base {
    let [low, high] = message_halves(application);
    poseidon(&[dst(DST_CHAIN_LINK), next_root, low, high, Base::from(epoch)])
}

/// The 32 bytes mithril-stm's signers sign at `epoch` of a chain: [`link`]'s canonical
/// little-endian bytes.
pub fn link_message(next_root: Base, application: &[u8; 32], epoch: u64) -> [u8; 32] {
    link(next_root, application, epoch).to_repr()
}

/// What a chain proof shows: `epochs` certificates, the first signed by the registration of root
/// `genesis`, each signed by the registration the one before handed over to, the last handing
/// over to `last_root` with `application`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainStatement {
    /// The root of the registration that signs epoch 0.
    pub genesis: Base,
    /// The root of the registration the last epoch hands over to.
    pub last_root: Base,
    /// The last epoch's application message.
    pub application: [u8; 32],
    /// The number of certificates.
    pub epochs: u64,
}

impl ChainStatement {
    /// The statement's public inputs `[genesis, last root, application low, high, epochs]`.
    pub fn public_inputs(&self) -> Vec<Base> {
        let [low, high] = message_halves(&self.application);
        vec![
            self.genesis,
            self.last_root,
            low,
            high,
            Base::from(self.epochs),
        ]
    }
}

/// A step proof with the statement and accumulator it was made for (its public inputs but the
/// step key's representation).
#[derive(Clone, Debug)]
pub struct ChainProof {
    /// The chain's statement.
    pub statement: ChainStatement,
    /// The accumulator of every pairing check deferred so far.
    pub accumulator: ChainAccumulator,
    /// The step proof (Poseidon transcript).
    pub proof: Vec<u8>,
}

/// The step circuit's constraint system and the certificate key, with the names and bases of
/// both keys' fixed commitments: what keygen, proving and verification share.
#[derive(Clone, Debug)]
pub struct StepLayout {
    k: u32,
    step_domain: EvaluationDomain<Base>,
    step_cs: ConstraintSystem<Base>,
    certificate_vk: Vk,
    names: Vec<String>,
}

fn names_of(name: &str, cs: &ConstraintSystem<Base>) -> Vec<String> {
    verifier::fixed_base_names::<Emulation>(
        name,
        cs.num_fixed_columns() + cs.num_selectors(),
        cs.permutation().get_columns().len(),
    )
}

impl StepLayout {
    /// The layout of a step at `2^k` rows over the certificate key `certificate_vk`.
    pub fn new(k: u32, certificate_vk: &Vk) -> Self {
        let mut step_cs = ConstraintSystem::default();
        StepCircuit::configure(&mut step_cs);
        let step_domain = EvaluationDomain::new(step_cs.degree() as u32, k);
        let mut names = names_of(STEP_KEY, &step_cs);
        names.extend(names_of(CERTIFICATE_KEY, certificate_vk.cs()));
        names.sort();
        names.dedup();
        Self {
            k,
            step_domain,
            step_cs,
            certificate_vk: certificate_vk.clone(),
            names,
        }
    }

    /// log2 of the step circuit's rows.
    pub fn k(&self) -> u32 {
        self.k
    }

    /// The accumulator of a chain of no epoch: it satisfies the pairing invariant.
    pub fn trivial_accumulator(&self) -> ChainAccumulator {
        Accumulator::trivial(&self.names)
    }

    /// The fixed commitments of both keys (and `-G`), by name.
    pub fn fixed_bases(&self, step_vk: &Vk) -> BTreeMap<String, G1Projective> {
        let mut bases = verifier::fixed_bases::<Emulation>(STEP_KEY, step_vk);
        bases.extend(verifier::fixed_bases::<Emulation>(
            CERTIFICATE_KEY,
            &self.certificate_vk,
        ));
        bases
    }

    /// The step circuit without witnesses (keygen).
    pub fn keygen_circuit(&self) -> StepCircuit {
        StepCircuit {
            layout: self.clone(),
            step_repr: Value::unknown(),
            witness: Value::unknown(),
        }
    }

    /// The public inputs of a step proof under `step_vk`.
    pub fn public_inputs(
        &self,
        step_vk: &Vk,
        statement: &ChainStatement,
        accumulator: &ChainAccumulator,
    ) -> Vec<Base> {
        let mut inputs = AssignedVk::<Emulation>::as_public_input(step_vk);
        inputs.extend(statement.public_inputs());
        inputs.extend(AssignedAccumulator::as_public_input(accumulator));
        inputs
    }

    /// The accumulator a proof made in the Poseidon transcript stands for (its pairing check
    /// deferred), collapsed; `None` when the proof does not parse or its transcript is not
    /// consumed exactly.
    fn proof_accumulator(
        &self,
        (name, vk): (&str, &Vk),
        fixed_bases: &BTreeMap<String, G1Projective>,
        committed: &[G1Projective],
        inputs: &[Base],
        proof: &[u8],
    ) -> Option<ChainAccumulator> {
        let mut transcript = ChainTranscript::init_from_bytes(proof);
        let dual_msm = plonk::prepare::<Base, Kzg, ChainTranscript>(
            vk,
            &[committed],
            &[&[inputs]],
            &mut transcript,
        )
        .ok()?;
        transcript.assert_empty().ok()?;
        let mut accumulator = Accumulator::from_dual_msm(dual_msm, name, fixed_bases);
        accumulator.collapse();
        Some(accumulator)
    }
}

/// The witness of one step.
#[derive(Clone, Debug)]
pub struct StepWitness {
    /// The previous statement (`epochs = 0` at genesis: nothing else of it is used).
    pub previous: ChainStatement,
    /// The previous accumulator (the trivial one at genesis).
    pub previous_accumulator: ChainAccumulator,
    /// The previous step proof (empty at genesis).
    pub previous_proof: Vec<u8>,
    /// The certificate's registration root.
    pub root: Base,
    /// The certificate proof (mithril-stm mode, Poseidon transcript).
    pub certificate_proof: Vec<u8>,
    /// The root of the registration the certificate hands over to.
    pub next_root: Base,
    /// The certificate's application message.
    pub application: [u8; 32],
}

/// The step circuit.
#[derive(Clone, Debug)]
pub struct StepCircuit {
    layout: StepLayout,
    step_repr: Value<Base>,
    witness: Value<StepWitness>,
}

/// The step circuit's chips' configuration.
#[derive(Clone, Debug)]
pub struct StepConfig {
    native: NativeConfig,
    decomposition: P2RDecompositionConfig,
    curve: ForeignWeierstrassEccConfig<G1Projective>,
    poseidon: PoseidonConfig<Base>,
}

impl Circuit<Base> for StepCircuit {
    type Config = StepConfig;
    type FloorPlanner = SimpleFloorPlanner;
    type Params = ();

    fn without_witnesses(&self) -> Self {
        self.layout.keygen_circuit()
    }

    fn configure(meta: &mut ConstraintSystem<Base>) -> StepConfig {
        let advice: Vec<_> =
            (0..nb_foreign_ecc_chip_columns::<Base, G1Projective, G1Projective, Scalars>())
                .map(|_| meta.advice_column())
                .collect();
        let fixed: Vec<_> = (0..NB_ARITH_COLS + 4)
            .map(|_| meta.fixed_column())
            .collect();
        // midnight's native chip takes a committed instance column (unused here: its commitment
        // is the identity) beside the public one.
        let instances = [meta.instance_column(), meta.instance_column()];
        let native = NativeChip::configure(
            meta,
            &(
                advice[..NB_ARITH_COLS].try_into().expect("arith columns"),
                fixed[..NB_ARITH_COLS + 4]
                    .try_into()
                    .expect("fixed columns"),
                instances,
            ),
        );
        let parallel_range_checks = NB_ARITH_COLS - 1;
        let decomposition = {
            let pow2 = Pow2RangeChip::configure(meta, &advice[1..=parallel_range_checks]);
            P2RDecompositionChip::configure(meta, &(native.clone(), pow2))
        };
        let base = FieldChip::<Base, CurveBase, G1Projective, Scalars>::configure(
            meta,
            &advice,
            parallel_range_checks,
            RANGE_BITS,
        );
        let curve = Curve::configure(meta, &base, &advice, parallel_range_checks, RANGE_BITS);
        let poseidon = PoseidonChip::configure(
            meta,
            &(
                advice[..NB_POSEIDON_ADVICE_COLS]
                    .try_into()
                    .expect("poseidon columns"),
                fixed[..NB_POSEIDON_FIXED_COLS]
                    .try_into()
                    .expect("poseidon fixed columns"),
            ),
        );
        StepConfig {
            native,
            decomposition,
            curve,
            poseidon,
        }
    }

    fn synthesize(
        &self,
        config: StepConfig,
        mut layouter: impl Layouter<Base>,
    ) -> Result<(), Error> {
        let native = <NativeChip<Base> as ComposableChip<Base>>::new(&config.native, &());
        let decomposition =
            P2RDecompositionChip::new(&config.decomposition, &(RANGE_BITS as usize));
        let scalars = NativeGadget::new(decomposition.clone(), native.clone());
        let curve = Curve::new(&config.curve, &scalars, &scalars);
        let poseidon = PoseidonChip::new(&config.poseidon, &native);
        let verifier = VerifierGadget::<Emulation>::new(&curve, &scalars, &poseidon);
        let layout = &self.layout;
        let layouter = &mut layouter;
        let w = |f: fn(&StepWitness) -> Base| self.witness.as_ref().map(f);

        // The step key: a public input (the verifier puts its own key's representation).
        let step_vk = verifier.assign_vk_as_public_input(
            layouter,
            STEP_KEY,
            &layout.step_domain,
            &layout.step_cs,
            self.step_repr,
        )?;
        // The certificate key: a constant.
        let certificate_vk = verifier.assign_fixed_vk(
            layouter,
            CERTIFICATE_KEY,
            layout.certificate_vk.get_domain(),
            layout.certificate_vk.cs(),
            layout.certificate_vk.transcript_repr(),
        )?;

        // The previous statement and accumulator.
        let previous: Vec<AssignedNative<Base>> = (0..STATEMENT_INPUTS)
            .map(|i| {
                let value = self.witness.as_ref().map(|w| w.previous.public_inputs()[i]);
                scalars.assign(layouter, value)
            })
            .collect::<Result<_, _>>()?;
        let [p_genesis, p_last, _, _, p_epochs] = [0, 1, 2, 3, 4].map(|i| previous[i].clone());
        let previous_accumulator = verifier.assign_collapsed_accumulator(
            layouter,
            &layout.names,
            self.witness
                .as_ref()
                .map(|w| w.previous_accumulator.clone()),
        )?;

        // The previous step proof, under the step key, for its statement and accumulator.
        let identity = curve.assign_fixed(layouter, G1Projective::identity())?;
        let previous_inputs: Vec<AssignedNative<Base>> = [
            verifier.as_public_input(layouter, &step_vk)?,
            previous.clone(),
            verifier.as_public_input(layouter, &previous_accumulator)?,
        ]
        .concat();
        let mut previous_proof = verifier.prepare(
            layouter,
            &step_vk,
            &[identity],
            &[&previous_inputs],
            self.witness.as_ref().map(|w| w.previous_proof.clone()),
        )?;
        // Base case: the previous proof stands for nothing, its checks are scaled away.
        let genesis = scalars.is_zero(layouter, &p_epochs)?;
        let not_genesis = scalars.not(layouter, &genesis)?;
        AssignedAccumulator::scale_by_bit(layouter, &scalars, &not_genesis, &mut previous_proof)?;
        previous_proof.collapse(layouter, &curve, &scalars)?;

        // The link this certificate signs, and its canonical bytes as the message's halves.
        let next_root: AssignedNative<Base> = scalars.assign(layouter, w(|w| w.next_root))?;
        let [application_low, application_high] = [0, 1].map(|i| {
            self.witness
                .as_ref()
                .map(move |w| message_halves(&w.application)[i])
        });
        let application_low: AssignedNative<Base> = scalars.assign(layouter, application_low)?;
        let application_high: AssignedNative<Base> = scalars.assign(layouter, application_high)?;
        let link_tag: AssignedNative<Base> =
            scalars.assign_fixed(layouter, Base::from(DST_CHAIN_LINK))?;
        let link = poseidon.hash(
            layouter,
            &[
                link_tag,
                next_root.clone(),
                application_low.clone(),
                application_high.clone(),
                p_epochs.clone(),
            ],
        )?;
        let bytes = scalars.assigned_to_le_bytes(layouter, &link, None)?;
        let half = |layouter: &mut _, bytes: &[AssignedByte<Base>]| {
            let terms: Vec<(Base, AssignedNative<Base>)> = bytes
                .iter()
                .enumerate()
                .map(|(i, byte)| {
                    (
                        Base::from(256).pow_vartime([i as u64]),
                        (*byte).clone().into(),
                    )
                })
                .collect();
            scalars.linear_combination(layouter, &terms, Base::ZERO)
        };
        let message_low = half(layouter, &bytes[..16])?;
        let message_high = half(layouter, &bytes[16..])?;

        // The certificate proof, under the certificate key, for [root, low, high].
        let root: AssignedNative<Base> = scalars.assign(layouter, w(|w| w.root))?;
        let mut certificate = verifier.prepare(
            layouter,
            &certificate_vk,
            &[],
            &[&[root.clone(), message_low, message_high]],
            self.witness.as_ref().map(|w| w.certificate_proof.clone()),
        )?;
        certificate.collapse(layouter, &curve, &scalars)?;

        // A step continues the chain where it ended; the base case starts it at this root.
        scalars.cond_assert_equal(layouter, &not_genesis, &root, &p_last)?;
        let genesis_root = scalars.select(layouter, &genesis, &root, &p_genesis)?;
        let epochs = scalars.add_constant(layouter, &p_epochs, Base::ONE)?;
        for cell in [
            &genesis_root,
            &next_root,
            &application_low,
            &application_high,
            &epochs,
        ] {
            scalars.constrain_as_public_input(layouter, cell)?;
        }

        let mut accumulator = verifier.accumulate(
            layouter,
            &[previous_proof, certificate, previous_accumulator],
        )?;
        accumulator.collapse(layouter, &curve, &scalars)?;
        verifier.constrain_as_public_input(layouter, &accumulator)?;

        decomposition.load(layouter)
    }
}

/// The step keys over the certificate key, at `params`' size. The certificate key must be of a
/// shape laid out for chains ([`crate::stm::StmShape::for_chain`]): the in-circuit verifier
/// takes rotations -1, 0 and 1 only.
pub fn step_keygen(
    params: &Params12,
    certificate_vk: &Vk,
) -> Result<(StepLayout, Pk), MithrilError> {
    let cs = certificate_vk.cs();
    let rotations = (cs.advice_queries().iter().map(|(_, r)| r))
        .chain(cs.fixed_queries().iter().map(|(_, r)| r))
        .chain(cs.instance_queries().iter().map(|(_, r)| r));
    if let Some(r) = rotations.map(|r| r.0).find(|r| !(-1..=1).contains(r)) {
        return Err(MithrilError::BadShape(format!(
            "the certificate key queries rotation {r}, which a chain step cannot verify: make \
             it from the shape's chain layout (StmShape::for_chain)"
        )));
    }
    let layout = StepLayout::new(params.max_k(), certificate_vk);
    let (pk, _) = tms_cardano::backend::keygen(params, &layout.keygen_circuit())?;
    Ok((layout, pk))
}

/// A certificate proof for a chain: the mithril-stm mode in the Poseidon transcript.
pub fn prove_certificate(
    params: &Params12,
    keys: &crate::stm::prover::StmKeys,
    witness: &crate::stm::StmWitness,
    rng: impl RngCore + CryptoRng,
) -> Result<Vec<u8>, MithrilError> {
    tms_cardano::scheme::prove_in::<crate::stm::StmShape, PoseidonState<Base>>(
        params, keys, witness, rng,
    )
}

/// Extends `previous` (none: the genesis epoch) by the certificate of `root` whose proof is
/// `certificate_proof`, handing over to `next_root` with `application`. Checks natively what the
/// circuit constrains first (the link, the previous proof and the certificate proof), so that a
/// step that cannot verify fails in seconds with the reason.
#[allow(clippy::too_many_arguments)]
pub fn extend(
    params: &Params12,
    keys: (&StepLayout, &Pk),
    previous: Option<&ChainProof>,
    root: Base,
    certificate_proof: &[u8],
    next_root: Base,
    application: &[u8; 32],
    rng: impl RngCore + CryptoRng,
) -> Result<ChainProof, MithrilError> {
    extend_with(
        params,
        keys,
        previous,
        (root, certificate_proof),
        (next_root, application),
        rng,
        true,
    )
}

/// [`extend`] without its native checks, for the negative tests: a cheating prover's step proof
/// (its accumulator computed from whatever the proofs give), which the verifier must refuse.
#[cfg(feature = "test-utils")]
#[allow(clippy::too_many_arguments)]
pub fn extend_unchecked(
    params: &Params12,
    keys: (&StepLayout, &Pk),
    previous: Option<&ChainProof>,
    root: Base,
    certificate_proof: &[u8],
    next_root: Base,
    application: &[u8; 32],
    rng: impl RngCore + CryptoRng,
) -> Result<ChainProof, MithrilError> {
    extend_with(
        params,
        keys,
        previous,
        (root, certificate_proof),
        (next_root, application),
        rng,
        false,
    )
}

fn extend_with(
    params: &Params12,
    (layout, step_pk): (&StepLayout, &Pk),
    previous: Option<&ChainProof>,
    (root, certificate_proof): (Base, &[u8]),
    (next_root, application): (Base, &[u8; 32]),
    rng: impl RngCore + CryptoRng,
    checked: bool,
) -> Result<ChainProof, MithrilError> {
    let step_vk = step_pk.get_vk();
    let holds = |acc: &ChainAccumulator, fixed_bases: &BTreeMap<String, G1Projective>| {
        !checked || acc.check(&params.verifier_params(), fixed_bases)
    };
    let fixed_bases = layout.fixed_bases(step_vk);
    let (previous_statement, previous_accumulator, previous_proof, previous_proof_acc) =
        match previous {
            None => (
                ChainStatement {
                    genesis: Base::ZERO,
                    last_root: Base::ZERO,
                    application: [0; 32],
                    epochs: 0,
                },
                layout.trivial_accumulator(),
                Vec::new(),
                // What the circuit makes of no proof scaled by zero.
                Accumulator::trivial(&names_of(STEP_KEY, &layout.step_cs)),
            ),
            Some(p) => {
                if checked && p.statement.last_root != root {
                    return Err(MithrilError::Stm(
                        "the certificate is not signed by the registration the chain ends at"
                            .into(),
                    ));
                }
                let inputs = layout.public_inputs(step_vk, &p.statement, &p.accumulator);
                let acc = layout
                    .proof_accumulator(
                        (STEP_KEY, step_vk),
                        &fixed_bases,
                        &[G1Projective::identity()],
                        &inputs,
                        &p.proof,
                    )
                    .filter(|acc| holds(acc, &fixed_bases))
                    .ok_or_else(|| {
                        MithrilError::Stm(
                            "the previous chain proof does not verify under the step key".into(),
                        )
                    })?;
                (p.statement, p.accumulator.clone(), p.proof.clone(), acc)
            }
        };
    let message = link_message(next_root, application, previous_statement.epochs);
    let certificate_inputs = StmInstance::from_trusted(root, &message).to_public_inputs();
    let certificate_acc = layout
        .proof_accumulator(
            (CERTIFICATE_KEY, &layout.certificate_vk),
            &fixed_bases,
            &[],
            &certificate_inputs,
            certificate_proof,
        )
        .filter(|acc| holds(acc, &fixed_bases))
        .ok_or_else(|| {
            MithrilError::Stm(format!(
                "the certificate proof does not verify for its root and the link message of \
                 epoch {} (a certificate signed on another message, or proved in another \
                 transcript or key)",
                previous_statement.epochs
            ))
        })?;
    let mut accumulator = Accumulator::accumulate(&[
        previous_proof_acc,
        certificate_acc,
        previous_accumulator.clone(),
    ]);
    accumulator.collapse();
    let statement = ChainStatement {
        genesis: if previous.is_some() {
            previous_statement.genesis
        } else {
            root
        },
        last_root: next_root,
        application: *application,
        epochs: previous_statement.epochs + 1,
    };
    let circuit = StepCircuit {
        layout: layout.clone(),
        step_repr: Value::known(step_vk.transcript_repr()),
        witness: Value::known(StepWitness {
            previous: previous_statement,
            previous_accumulator,
            previous_proof,
            root,
            certificate_proof: certificate_proof.to_vec(),
            next_root,
            application: *application,
        }),
    };
    let inputs = layout.public_inputs(step_vk, &statement, &accumulator);
    let mut transcript = ChainTranscript::init();
    plonk::create_proof::<Base, Kzg, ChainTranscript, StepCircuit>(
        params,
        step_pk,
        &[circuit],
        1,
        &[&[&[], &inputs]],
        &mut transcript,
        rng,
    )
    .map_err(|e| MithrilError::Backend(e.to_string()))?;
    Ok(ChainProof {
        statement,
        accumulator,
        proof: transcript.finalize(),
    })
}

/// Checks a chain proof for `statement` (which the verifier built) under the step key
/// `step_vk` and the certificate key of `layout` (both regenerated or pinned by the verifier):
/// the step proof and the accumulator it carries, each against its pairing.
pub fn verify(
    params: &VerifierParams,
    layout: &StepLayout,
    step_vk: &Vk,
    statement: &ChainStatement,
    accumulator: &ChainAccumulator,
    proof: &[u8],
) -> Result<(), MithrilError> {
    let fixed_bases = layout.fixed_bases(step_vk);
    let inputs = layout.public_inputs(step_vk, statement, accumulator);
    let proof_acc = layout
        .proof_accumulator(
            (STEP_KEY, step_vk),
            &fixed_bases,
            &[G1Projective::identity()],
            &inputs,
            proof,
        )
        .ok_or(MithrilError::ProofRejected)?;
    if proof_acc.check(params, &fixed_bases) && accumulator.check(params, &fixed_bases) {
        Ok(())
    } else {
        Err(MithrilError::ProofRejected)
    }
}

/// An accumulator as bytes: each side's base (compressed) and scalar, then the right side's
/// fixed-base scalars in name order (the names are the layout's).
pub fn accumulator_to_bytes(accumulator: &ChainAccumulator) -> Vec<u8> {
    let mut bytes = Vec::new();
    for msm in [accumulator.lhs(), accumulator.rhs()] {
        for base in msm.bases() {
            bytes.extend_from_slice(G1Affine::from(base).to_bytes().as_ref());
        }
        for scalar in msm.scalars() {
            bytes.extend_from_slice(scalar.to_repr().as_ref());
        }
    }
    for scalar in accumulator.rhs().fixed_base_scalars().values() {
        bytes.extend_from_slice(scalar.to_repr().as_ref());
    }
    bytes
}

impl StepLayout {
    /// Bytes of an accumulator of this layout.
    pub fn accumulator_bytes(&self) -> usize {
        2 * (48 + 32) + 32 * self.names.len()
    }

    /// An accumulator of this layout from [`accumulator_to_bytes`]; `None` when a point or a
    /// scalar does not decode.
    pub fn accumulator_from_bytes(&self, bytes: &[u8]) -> Option<ChainAccumulator> {
        if bytes.len() != self.accumulator_bytes() {
            return None;
        }
        let point = |b: &[u8]| -> Option<G1Projective> {
            let mut repr = <G1Affine as GroupEncoding>::Repr::default();
            repr.as_mut().copy_from_slice(b);
            let affine: Option<G1Affine> = G1Affine::from_bytes(&repr).into();
            affine.map(|a| G1Projective::from(&a))
        };
        let scalar =
            |b: &[u8]| -> Option<Base> { Option::from(Base::from_repr(b.try_into().ok()?)) };
        let mut sides = Vec::with_capacity(2);
        for side in 0..2 {
            let at = side * 80;
            sides.push((
                point(&bytes[at..at + 48])?,
                scalar(&bytes[at + 48..at + 80])?,
            ));
        }
        let fixed = self
            .names
            .iter()
            .zip(bytes[160..].chunks(32))
            .map(|(name, b)| Some((name.clone(), scalar(b)?)))
            .collect::<Option<BTreeMap<_, _>>>()?;
        Some(Accumulator::new(
            Msm::new(&[sides[0].0], &[sides[0].1], &BTreeMap::new()),
            Msm::new(&[sides[1].0], &[sides[1].1], &fixed),
        ))
    }
}
