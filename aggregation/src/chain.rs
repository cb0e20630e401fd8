//! Mithril certificate chains in one proof, for light clients.
//!
//! Epoch `e`'s certificate signs `link_message(next registration digest, application message,
//! e)` ([`mithril_snark::chain`]); its proof's public inputs are `[registration digest,
//! message]`. A chain is proved in a tree of aggregation circuits ([`ChainNode`]):
//!
//! - a **leaf** verifies `per_leaf` consecutive certificate proofs; for each it witnesses the
//!   link (next digest, application message) and constrains the certificate's message to be
//!   its Poseidon link hash at its epoch (the leaf's first epoch plus its place in the leaf),
//!   and each certificate's registration digest to be the previous one's next digest;
//! - a **node** verifies `per_node` consecutive leaf (or node) proofs and constrains each one's
//!   first registration digest to be the previous one's last, and each one's first epoch to
//!   follow the previous one's last;
//!
//! and each exposes its segment `[first registration digest, last next digest, last application
//! message, epochs]` ([`ChainStatement`]) after the accumulator, followed, below the root, by
//! its first epoch. The root constrains its first epoch to 0 (the genesis registration signs
//! epoch 0), so every certificate is bound to its place from genesis, and exposes the chain's
//! statement: a verifier that trusts the genesis registration learns which registration the
//! chain hands over to, the last application message, and how many certificates it took. Each
//! level's verifying key fixes the one below it, so the root key fixes the whole tree.

use halo2_base::{
    gates::{GateChip, GateInstructions},
    halo2_proofs::{
        halo2curves::bn256::{Bn256, G1Affine},
        plonk::VerifyingKey,
        poly::kzg::commitment::ParamsKZG,
    },
    AssignedValue, Context,
};
use mithril_snark::{chain::ChainStatement, params::Tag};
use tms_gadgets::{
    hash::{HashInstructions, PoseidonChip},
    proving::Transcript,
    Fr,
};

pub use crate::tree::ChainShape;
use crate::{
    snark::{
        aggregation_keygen, aggregation_prove, aggregation_verify, certificate_sample, node_sample,
        node_snark, Statement,
    },
    AggregationError, AggregationKeys, Snark, ACCUMULATOR_LIMBS,
};

/// What a chain tree's root verifying key file says it proves (its header's `statement`).
pub const ROOT_STATEMENT: &str = "mithril-chain";

/// What a chain step key file (`tms chain extend`'s) says it proves.
pub const STEP_STATEMENT: &str = "mithril-chain-step";

/// What the wrapper key file of an extended chain (`tms chain wrap`'s) says it proves: the
/// chain's statement, as a tree's root does ([`verify_chain_proof`] serves both).
pub const WRAPPED_STATEMENT: &str = "mithril-chain-wrapped";

/// Public inputs of a chain segment after the accumulator (the root's: the chain's statement).
pub const SEGMENT_INPUTS: usize = 4;

/// Public inputs of a segment below the root after the accumulator: the segment, then its first
/// epoch.
pub const INNER_SEGMENT_INPUTS: usize = SEGMENT_INPUTS + 1;

/// Public inputs of a certificate proof: registration digest, message.
const CERTIFICATE_INPUTS: usize = 2;

/// The link a certificate's message binds, witnessed by a leaf.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Link {
    /// The digest of the registration that signs the next epoch.
    pub next_registration: Fr,
    /// This epoch's application message.
    pub application: Fr,
}

/// Where an aggregation circuit sits in the tree: the root starts the chain at epoch 0 and
/// exposes the chain's statement; a circuit below it exposes its first epoch too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The tree's root.
    Root,
    /// A leaf or node below the root.
    Inner,
}

/// What one aggregation circuit of the tree verifies.
#[derive(Clone, Debug)]
pub enum ChainNode {
    /// Consecutive certificate proofs and their links, the first one's epoch, and where the leaf
    /// sits (values matter only when proving; the root's first epoch is 0 whatever is given).
    Certificates {
        /// The links, one per certificate.
        links: Vec<Link>,
        /// The epoch of the first certificate.
        first_epoch: u64,
        /// Root or inner.
        place: Place,
    },
    /// Consecutive segment proofs (leaves or nodes below the root), this many.
    Segments {
        /// How many.
        count: usize,
        /// Root or inner.
        place: Place,
    },
}

/// A segment's public inputs (after the accumulator).
pub fn segment_inputs(segment: &ChainStatement) -> [Fr; SEGMENT_INPUTS] {
    [
        segment.genesis,
        segment.last_registration,
        segment.last_application,
        Fr::from(segment.epochs as u64),
    ]
}

/// A segment's public inputs below the root (after the accumulator): [`segment_inputs`], then
/// the epoch of its first certificate.
pub fn inner_segment_inputs(
    segment: &ChainStatement,
    first_epoch: u64,
) -> [Fr; INNER_SEGMENT_INPUTS] {
    let [genesis, last, application, epochs] = segment_inputs(segment);
    [genesis, last, application, epochs, Fr::from(first_epoch)]
}

fn expect_len(
    inner: &[Vec<AssignedValue<Fr>>],
    count: usize,
    len: usize,
    what: &str,
) -> Result<(), AggregationError> {
    if inner.len() != count {
        return Err(AggregationError::Input(format!(
            "{count} {what} proofs expected, {} given",
            inner.len()
        )));
    }
    match inner.iter().position(|i| i.len() != len) {
        Some(index) => Err(AggregationError::Inner {
            index,
            reason: format!("a {what} proof has {len} public inputs"),
        }),
        None => Ok(()),
    }
}

impl Statement for ChainNode {
    fn constrain(
        &self,
        ctx: &mut Context<Fr>,
        inner: &[Vec<AssignedValue<Fr>>],
    ) -> Result<Vec<AssignedValue<Fr>>, AggregationError> {
        let poseidon = PoseidonChip::new();
        let gate = GateChip::<Fr>::default();
        let place = match self {
            ChainNode::Certificates { place, .. } | ChainNode::Segments { place, .. } => *place,
        };
        // (first registration digest, last next digest, last application, epochs, first epoch)
        // per child.
        let segments: Vec<[AssignedValue<Fr>; INNER_SEGMENT_INPUTS]> = match self {
            ChainNode::Certificates {
                links, first_epoch, ..
            } => {
                expect_len(inner, links.len(), CERTIFICATE_INPUTS, "certificate")?;
                let tag = ctx.load_constant(Tag::ChainLink.value());
                let one = ctx.load_constant(Fr::one());
                // The root's chain starts at epoch 0; an inner leaf's first epoch is checked by
                // the node above it.
                let mut epoch = match place {
                    Place::Root => ctx.load_zero(),
                    Place::Inner => ctx.load_witness(Fr::from(*first_epoch)),
                };
                let mut segments = Vec::with_capacity(links.len());
                for (public, link) in inner.iter().zip(links) {
                    let (digest, message) = (public[0], public[1]);
                    let next = ctx.load_witness(link.next_registration);
                    let application = ctx.load_witness(link.application);
                    let bound = poseidon.hash_leaf(ctx, &[tag, next, application, epoch]);
                    ctx.constrain_equal(&bound, &message);
                    segments.push([digest, next, application, one, epoch]);
                    epoch = gate.add(ctx, epoch, one);
                }
                segments
            }
            ChainNode::Segments { count, .. } => {
                expect_len(
                    inner,
                    *count,
                    ACCUMULATOR_LIMBS + INNER_SEGMENT_INPUTS,
                    "segment",
                )?;
                inner
                    .iter()
                    .map(|public| std::array::from_fn(|i| public[ACCUMULATOR_LIMBS + i]))
                    .collect()
            }
        };
        let leaf = matches!(self, ChainNode::Certificates { .. });
        for pair in segments.windows(2) {
            // The next segment is signed by the registration the previous one hands over to...
            ctx.constrain_equal(&pair[1][0], &pair[0][1]);
            // ...and starts at the epoch after the previous one's last (in a leaf, the epochs
            // are computed so).
            if !leaf {
                let follows = gate.add(ctx, pair[0][4], pair[0][3]);
                ctx.constrain_equal(&pair[1][4], &follows);
            }
        }
        let (Some(&first), Some(&last)) = (segments.first(), segments.last()) else {
            return Err(AggregationError::Input(
                "a chain node verifies at least one proof".into(),
            ));
        };
        let epochs = gate.sum(ctx, segments.iter().map(|s| s[3]));
        match place {
            Place::Root => {
                // The chain starts at the genesis registration's epoch 0.
                gate.assert_is_const(ctx, &first[4], &Fr::zero());
                Ok(vec![first[0], last[1], last[2], epochs])
            }
            Place::Inner => Ok(vec![first[0], last[1], last[2], epochs, first[4]]),
        }
    }
}

/// The keys of a chain tree, leaf level first; the last is the root's.
pub struct ChainKeys {
    /// The shape they are for.
    pub shape: ChainShape,
    /// One aggregation key per level.
    pub levels: Vec<AggregationKeys>,
}

/// A proved chain: the root's public inputs (accumulator, then the segment) and its proof.
pub struct ChainProof {
    /// Accumulator limbs, then [`segment_inputs`] of the chain's statement.
    pub public_inputs: Vec<Fr>,
    /// The root's proof, in the transcript it was asked for.
    pub proof: Vec<u8>,
}

/// One certificate of a chain, ready to aggregate: its proof as a snark
/// ([`crate::certificate_snark`]) and the link its message binds.
#[derive(Clone, Debug)]
pub struct ChainCertificate {
    /// The certificate proof (Poseidon transcript), public inputs `[digest, message]`.
    pub snark: Snark,
    /// What its message binds.
    pub link: Link,
}

/// The keys of every level of a chain tree of `shape` over certificates proved under
/// `certificate_vk` (with `certificate_params`, their circuit's parameters), made from stand-ins ([`certificate_sample`], [`node_sample`]): no proof is
/// needed, so a verifier regenerates the root key from the certificate key it trusts and the
/// tree's shape, and [`prove_chain`] proves under the same keys.
pub fn chain_keygen(
    params: &ParamsKZG<Bn256>,
    shape: ChainShape,
    (certificate_params, certificate_vk): (&ParamsKZG<Bn256>, &VerifyingKey<G1Affine>),
    progress: Progress,
) -> Result<ChainKeys, AggregationError> {
    if shape.per_leaf == 0 || shape.per_node == 0 {
        return Err(AggregationError::Input(
            "a chain tree needs at least one proof per leaf and per node".into(),
        ));
    }
    let mut levels: Vec<AggregationKeys> = Vec::with_capacity(shape.levels + 1);
    for level in 0..=shape.levels {
        progress(level, 0, 1);
        let place = place_at(shape, level);
        let (samples, node) = match levels.last() {
            None => (
                vec![
                    certificate_sample(certificate_params, certificate_vk, CERTIFICATE_INPUTS);
                    shape.per_leaf
                ],
                ChainNode::Certificates {
                    links: vec![Link::default(); shape.per_leaf],
                    first_epoch: 0,
                    place,
                },
            ),
            Some(below) => (
                vec![
                    node_sample(params, below.vk(), ACCUMULATOR_LIMBS + INNER_SEGMENT_INPUTS);
                    shape.per_node
                ],
                ChainNode::Segments {
                    count: shape.per_node,
                    place,
                },
            ),
        };
        levels.push(aggregation_keygen(params, shape.k, samples, &node)?);
    }
    Ok(ChainKeys { shape, levels })
}

/// The place of `level`'s circuits in a tree of `shape` (level 0: the leaves).
fn place_at(shape: ChainShape, level: usize) -> Place {
    if level == shape.levels {
        Place::Root
    } else {
        Place::Inner
    }
}

/// What [`prove_chain`] reports as it goes: a level, the node within it, and the nodes in it.
pub type Progress<'a> = &'a mut dyn FnMut(usize, usize, usize);

/// Proves `certificates` (consecutive epochs, all under one certificate verifying key) in a tree
/// of `shape`; the root proof is made in `root_transcript`. Keys come from `keys` when given
/// (same shape) and from [`chain_keygen`] over `certificate_key` (the certificates' parameters
/// and verifying key) otherwise; they are returned for the next chain.
pub fn prove_chain(
    params: &ParamsKZG<Bn256>,
    shape: ChainShape,
    certificate_key: (&ParamsKZG<Bn256>, &VerifyingKey<G1Affine>),
    certificates: Vec<ChainCertificate>,
    keys: Option<ChainKeys>,
    root_transcript: Transcript,
    progress: Progress,
) -> Result<(ChainKeys, ChainProof), AggregationError> {
    if certificates.len() != shape.epochs() || shape.per_leaf == 0 || shape.per_node == 0 {
        return Err(AggregationError::Input(format!(
            "a tree of {} certificates per leaf, {} children per node and {} levels proves {} \
             epochs; {} certificates given",
            shape.per_leaf,
            shape.per_node,
            shape.levels,
            shape.epochs(),
            certificates.len()
        )));
    }
    let keys = match keys {
        Some(k) if k.shape == shape => k.levels,
        Some(_) => {
            return Err(AggregationError::Input(
                "the chain keys are for another tree shape".into(),
            ))
        }
        None => chain_keygen(params, shape, certificate_key, &mut |_, _, _| {})?.levels,
    };
    let leaf_place = place_at(shape, 0);
    let mut level_nodes: Vec<(Vec<Snark>, ChainNode)> = certificates
        .chunks(shape.per_leaf)
        .enumerate()
        .map(|(leaf, group)| {
            (
                group.iter().map(|c| c.snark.clone()).collect(),
                ChainNode::Certificates {
                    links: group.iter().map(|c| c.link).collect(),
                    first_epoch: (leaf * shape.per_leaf) as u64,
                    place: leaf_place,
                },
            )
        })
        .collect();
    for level in 0..=shape.levels {
        let root = level == shape.levels;
        let transcript = if root {
            root_transcript
        } else {
            Transcript::Poseidon
        };
        let count = level_nodes.len();
        let mut proved = Vec::with_capacity(count);
        for (index, (snarks, node)) in level_nodes.into_iter().enumerate() {
            progress(level, index, count);
            let (public_inputs, proof) =
                aggregation_prove(params, &keys[level], snarks, &node, transcript)?;
            proved.push((public_inputs, proof));
        }
        if root {
            let (public_inputs, proof) = proved.pop().expect("one root");
            return Ok((
                ChainKeys {
                    shape,
                    levels: keys,
                },
                ChainProof {
                    public_inputs,
                    proof,
                },
            ));
        }
        let vk = keys[level].vk().clone();
        let snarks = proved
            .into_iter()
            .map(|(public_inputs, proof)| node_snark(params, &vk, &public_inputs, proof))
            .collect::<Result<Vec<_>, _>>()?;
        let place = place_at(shape, level + 1);
        level_nodes = snarks
            .chunks(shape.per_node)
            .map(|group| {
                let node = ChainNode::Segments {
                    count: group.len(),
                    place,
                };
                (group.to_vec(), node)
            })
            .collect();
    }
    unreachable!("the root level returns")
}

/// Whether `proof` shows the chain `statement` under the root verifying key `vk`: the public
/// inputs are the proof's accumulator (proof material, checked by its pairing) followed by the
/// segment the verifier builds from `statement` (its trusted genesis digest and the claimed end).
pub fn verify_chain_proof(
    params: &ParamsKZG<Bn256>,
    vk: &VerifyingKey<G1Affine>,
    statement: &ChainStatement,
    accumulator: &[Fr],
    proof: &[u8],
    transcript: Transcript,
) -> bool {
    if accumulator.len() != ACCUMULATOR_LIMBS {
        return false;
    }
    let mut public_inputs = accumulator.to_vec();
    public_inputs.extend(segment_inputs(statement));
    aggregation_verify(params, vk, &public_inputs, proof, transcript)
}

impl ChainProof {
    /// The proof file ([`crate::snark::proof_file`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        crate::snark::proof_file(&self.public_inputs[..ACCUMULATOR_LIMBS], &self.proof)
    }
}
