//! `tms chunk split|join|verify`: a Schnorr ATMS committee proved in chunks (Merkle subtrees of
//! consecutive members), each an ordinary certificate proof, joined by one aggregation proof
//! whose statement is the unchunked one (`tms-aggregation`'s `chunks`).
//!
//! ```text
//! tms chunk split --committee c.json --certificate cert.json --chunks 4 --out-dir chunks
//!     -> chunks/chunk-<i>.committee.json, chunk-<i>.certificate.json, chunks/manifest.json
//! tms keygen --committee chunks/chunk-0.committee.json --mode merkle --slots S ...   (one key)
//! tms prove --committee chunks/chunk-<i>.committee.json --certificate chunks/chunk-<i>.certificate.json \
//!           --threshold <t_i from the manifest> --transcript poseidon ...          (one job each)
//! tms chunk join --committee c.json --threshold t --params p.srs --vk chunk.vk \
//!           --proofs ... --publics ... --aggregation-params agg.srs --proof join.proof --out-vk join.vk
//! tms chunk verify --committee c.json --message 0x.. --threshold t --params agg.srs --vk join.vk \
//!           --proof join.proof
//! ```
//! The chunk proofs are independent jobs (a map); the join is the reduce. The Ray driver
//! (`tools/tms_ray`) runs them on a cluster.
//!
//! A committee too large for one join is joined in a tree: a lower join takes the chunks of one
//! subtree (`--part g/m`: subtree `g` of `m`, Poseidon transcript, `--public` for its statement
//! `[subtree root, message, t_g]`), and the next level joins the lower joins' proofs under their
//! verifying key (`--vk lower.vk`, `tms-aggregation`'s `chunks::JoinedChunks`):
//!
//! ```text
//! tms chunk join --committee c.json --part 0/4 --transcript poseidon --public j0.json \
//!           --params p.srs --vk chunk.vk --proofs <chunks 0..3> --publics ... \
//!           --aggregation-params agg.srs --proof j0.proof --out-vk lower.vk   (one job per part)
//! tms chunk join --committee c.json --threshold t --params agg.srs --vk lower.vk \
//!           --proofs j0.proof .. j3.proof --publics j0.json .. j3.json --aggregation-params agg.srs ...
//! ```
//!
//! A join of one input (a wrap, `--part i/P` over chunk `i` alone) re-proves a chunk proof as an
//! aggregation proof of a few columns at the join's k: joins of wraps verify fewer commitments
//! than joins of chunk proofs (the chunk circuit's wide custom-gate bank), and so fit less
//! memory at every level of a tree.

use std::{
    fs,
    path::{Path, PathBuf},
};

use halo2_base::halo2_proofs::{
    halo2curves::bn256::{Bn256, G1Affine},
    plonk::VerifyingKey,
    poly::{commitment::Params, kzg::commitment::ParamsKZG},
};
use schnorr_atms::{CommitmentMode, Committee};
use serde::{Deserialize, Serialize};
use tms_aggregation::{
    aggregation_keygen, certificate_sample, certificate_snark,
    chunks::{check_chunk_count, check_join_inputs, CommitteeChunks, JoinedChunks, CHUNK_INPUTS},
    node_sample, node_snark, read_vk_file, split_proof_file, Snark, Statement, ACCUMULATOR_LIMBS,
};
use tms_evm::certificate::{Contracts, GasReport, Trusted};
use tms_gadgets::{message::message_to_field, proving::keys::fingerprint, Fr};

use super::aggregate::{prove_and_write, verifies, KeySource};
use crate::checks::{check_params_k, describe_message};
use crate::interface::KeyTrust;
use crate::schemes::schnorr::{
    bn254::{load_committee, SchnorrBn254},
    load_registered, CertificateFile, CommitteeFile,
};
use crate::{
    formats::{bytes_from_hex, fr_from_str, fr_to_hex, Header, PublicFile},
    io::{
        at, load_params, read_bytes, read_json, usage, write_atomic, write_json, CliError, Result,
    },
    options::{Scheme, TranscriptName},
};

const SCHEME: Scheme = Scheme::SchnorrAtms;
/// The most chunks one join takes (each chunk proof costs the join millions of cells).
pub const MAX_CHUNKS: usize = 16;
/// The Merkle mode's commitment (the slot count does not change the root).
const MERKLE: CommitmentMode = CommitmentMode::Merkle { slots: 1 };

/// One chunk in `manifest.json`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct ChunkEntry {
    /// Its committee file (relative to the manifest).
    pub committee: String,
    /// Its certificate file (relative to the manifest).
    pub certificate: String,
    /// The committee index of its first member.
    pub first_member: usize,
    /// Its members.
    pub members: usize,
    /// Its signatures: the threshold its proof claims.
    pub threshold: u64,
    /// Its subtree root (0x-hex), the commitment its proof must carry.
    pub root: String,
}

/// `manifest.json` of `tms chunk split`: what each chunk job proves.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct Manifest {
    /// Version and scheme.
    #[serde(flatten)]
    pub header: Header,
    /// The whole committee's Merkle root (0x-hex).
    pub root: String,
    /// The message bytes (0x-hex).
    pub message: String,
    /// The signatures of the whole certificate.
    pub signatures: usize,
    /// The chunks, in committee order.
    pub chunks: Vec<ChunkEntry>,
}

fn check_count(chunks: usize) -> Result<()> {
    check_chunk_count(chunks).map_err(|e| usage(format!("--chunks: {e}")))?;
    if chunks > MAX_CHUNKS {
        return Err(usage(format!("--chunks: at most {MAX_CHUNKS}")));
    }
    Ok(())
}

/// A join's input count: a power of two up to [`MAX_CHUNKS`]; one input is a wrap.
fn check_inputs(inputs: usize) -> Result<()> {
    check_join_inputs(inputs).map_err(|e| usage(format!("--proofs: {e}")))?;
    if inputs > MAX_CHUNKS {
        return Err(usage(format!("--proofs: at most {MAX_CHUNKS}")));
    }
    Ok(())
}

/// `tms chunk split`: the committee and certificate of each chunk, and the manifest.
pub fn split(
    committee_path: &Path,
    certificate_path: &Path,
    chunks: usize,
    out_dir: &Path,
) -> Result<()> {
    check_count(chunks)?;
    let (committee, registered) = load_registered::<SchnorrBn254>(committee_path)?;
    let file: CertificateFile = read_json(certificate_path, SCHEME)?;
    let parts = committee
        .chunks(chunks)
        .map_err(|e| at(committee_path, e))?;
    let size = parts[0].keys().len();
    let n = committee.keys().len();
    if let Some(s) = file.signatures.iter().find(|s| s.index >= n) {
        return Err(at(
            certificate_path,
            format!("signature by member {} of a committee of {n}", s.index),
        ));
    }
    fs::create_dir_all(out_dir).map_err(|e| at(out_dir, format!("cannot create: {e}")))?;
    let mut entries = Vec::with_capacity(chunks);
    for (i, part) in parts.iter().enumerate() {
        let first = i * size;
        let members = part.keys().len();
        let committee_name = format!("chunk-{i}.committee.json");
        let certificate_name = format!("chunk-{i}.certificate.json");
        write_json(
            &out_dir.join(&committee_name),
            &CommitteeFile {
                header: Header::new(SCHEME),
                members: registered[first..first + members].to_vec(),
            },
        )?;
        let mut signatures: Vec<_> = file
            .signatures
            .iter()
            .filter(|s| (first..first + members).contains(&s.index))
            .cloned()
            .collect();
        for s in &mut signatures {
            s.index -= first;
        }
        let threshold = signatures.len() as u64;
        write_json(
            &out_dir.join(&certificate_name),
            &CertificateFile {
                header: Header::new(SCHEME),
                message: file.message.clone(),
                signatures,
            },
        )?;
        entries.push(ChunkEntry {
            committee: committee_name,
            certificate: certificate_name,
            first_member: first,
            members,
            threshold,
            root: fr_to_hex(&part.commitment(MERKLE)),
        });
    }
    let manifest = Manifest {
        header: Header::new(SCHEME),
        root: fr_to_hex(&committee.commitment(MERKLE)),
        message: file.message.clone(),
        signatures: file.signatures.len(),
        chunks: entries,
    };
    write_json(&out_dir.join("manifest.json"), &manifest)?;
    println!(
        "{n} members in {chunks} chunks of {size}: {} signatures ({}); prove each chunk with \
         `tms prove --transcript poseidon --threshold <its threshold>`; manifest written to {}",
        file.signatures.len(),
        manifest
            .chunks
            .iter()
            .map(|c| c.threshold.to_string())
            .collect::<Vec<_>>()
            .join(" + "),
        out_dir.join("manifest.json").display()
    );
    Ok(())
}

/// The chunk proofs' (or lower joins') public statements, checked natively against the
/// committee before any proving: input `i` must carry subtree `i`'s root and all one message.
/// Returns the statements `[root, message, t_i]`, the message bytes and the sum of the `t_i`.
/// A single input (a wrap) must carry the root of `committee` (`what`) itself.
fn chunk_inputs(
    committee: &Committee,
    what: &str,
    publics: &[PathBuf],
) -> Result<(Vec<Vec<Fr>>, Vec<u8>, u64)> {
    let parts = match publics.len() {
        1 => vec![committee.clone()],
        count => committee
            .chunks(count)
            .map_err(|e| CliError(e.to_string()))?,
    };
    let mut inputs = Vec::with_capacity(publics.len());
    let mut message: Option<Vec<u8>> = None;
    let mut total = 0u64;
    for (i, (path, part)) in publics.iter().zip(&parts).enumerate() {
        let file: PublicFile<serde_json::Value> = read_json(path, SCHEME)?;
        let root = fr_from_str(&file.commitment, "commitment").map_err(|e| at(path, e))?;
        if root != part.commitment(MERKLE) {
            let reason = match publics.len() {
                1 => format!("not a proof for {what}: its commitment is not that root"),
                _ => {
                    format!("not a proof for chunk {i}: its commitment is not that subtree's root")
                }
            };
            return Err(at(path, reason));
        }
        let bytes = bytes_from_hex(&file.message, "message").map_err(|e| at(path, e))?;
        match &message {
            Some(m) if *m != bytes => {
                return Err(at(path, "another message than the first chunk's"));
            }
            _ => message = Some(bytes.clone()),
        }
        total = total.saturating_add(file.threshold);
        inputs.push(vec![
            root,
            message_to_field(&bytes),
            Fr::from(file.threshold),
        ]);
    }
    Ok((inputs, message.unwrap_or_default(), total))
}

/// The statement name in a join's verifying key file, before the chunk count.
pub(crate) const STATEMENT: &str = "chunks schnorr-atms x";

fn statement_name(chunks: usize) -> String {
    format!("{STATEMENT}{chunks}")
}

/// Where a join sits in a join tree: subtree `index` of `of` subtrees of the committee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    /// The subtree, counted from the committee's first member.
    pub index: usize,
    /// How many subtrees the committee splits into at this level.
    pub of: usize,
}

impl std::str::FromStr for Part {
    type Err = String;

    fn from_str(s: &str) -> std::result::Result<Self, String> {
        let (index, of) = s
            .split_once('/')
            .ok_or_else(|| format!("{s:?}: expected g/m (subtree g of m), e.g. 0/4"))?;
        let number = |n: &str| {
            n.trim()
                .parse::<usize>()
                .map_err(|_| format!("{s:?}: {n:?} is not a count"))
        };
        let part = Self {
            index: number(index)?,
            of: number(of)?,
        };
        if part.index >= part.of {
            return Err(format!("{s:?}: subtree {} of {}", part.index, part.of));
        }
        Ok(part)
    }
}

/// What `tms chunk join` is asked to do.
#[derive(Debug)]
pub struct JoinRequest<'a> {
    /// The whole committee's file.
    pub committee: &'a Path,
    /// The subtree this join covers (`g/m`, a lower join of a tree), or the whole committee.
    pub part: Option<&'a str>,
    /// The threshold the join claims; the sum of its inputs' thresholds when absent.
    pub threshold: Option<u64>,
    /// The join proof's transcript: EVM for the top join, Poseidon for a lower join.
    pub transcript: TranscriptName,
    /// Where to write the join's statement (`public.json` format), for the next level.
    pub public: Option<&'a Path>,
    /// KZG parameters of the inputs' circuit (chunk or lower join).
    pub params: &'a Path,
    /// The inputs' verifying key: a chunk key (`tms keygen`) or a lower join's key.
    pub vk: &'a Path,
    /// Input proofs, in committee order.
    pub proofs: &'a [PathBuf],
    /// Their statements, in the same order.
    pub publics: &'a [PathBuf],
    /// KZG parameters of the join circuit.
    pub aggregation_params: &'a Path,
    /// The join proof file to write.
    pub out_proof: &'a Path,
    /// The join verifying key file to write.
    pub out_vk: &'a Path,
}

/// A join's inputs as snarks, their stand-ins for keygen, its statement and its key's name.
type JoinInputs = (Vec<Snark>, Vec<Snark>, Box<dyn Statement>, String);

/// The join's inputs as snarks and its statement: chunk proofs under a chunk key, or lower
/// join proofs (accumulator words first) under a join key.
fn input_snarks(request: &JoinRequest, inputs: &[Vec<Fr>], threshold: u64) -> Result<JoinInputs> {
    let params = load_params(request.params)?;
    let vk_bytes = read_bytes(request.vk)?;
    let count = inputs.len();
    let mut snarks = Vec::with_capacity(count);
    if let Ok((header, vk)) = read_vk_file(&vk_bytes) {
        if !header.statement.starts_with(STATEMENT) {
            return Err(at(
                request.vk,
                format!("a key for {:?}, not a chunk join", header.statement),
            ));
        }
        check_params_k(request.params, params.k(), header.config.degree)?;
        for (i, (path, statement)) in request.proofs.iter().zip(inputs).enumerate() {
            let (mut public_inputs, proof) =
                split_proof_file(&read_bytes(path)?).map_err(|e| at(path, e))?;
            public_inputs.extend(statement);
            let snark = node_snark(&params, &vk, &public_inputs, proof).map_err(|_| {
                at(
                    path,
                    format!(
                        "does not verify as {} in the Poseidon transcript (make lower \
                         joins with `tms chunk join --part g/m --transcript poseidon`)",
                        input_name("join", i, count)
                    ),
                )
            })?;
            snarks.push(snark);
        }
        let name = format!("{} of {}", statement_name(count), header.statement);
        let samples = vec![node_sample(&params, &vk, ACCUMULATOR_LIMBS + CHUNK_INPUTS); count];
        return Ok((snarks, samples, Box::new(JoinedChunks { threshold }), name));
    }
    let (shape, vk) = schnorr_atms::read_vk(&vk_bytes).map_err(|e| {
        at(
            request.vk,
            format!("neither a chunk key (`tms keygen`) nor a join key (`tms chunk join`): {e}"),
        )
    })?;
    check_params_k(request.params, params.k(), shape.k)?;
    for (i, (path, public)) in request.proofs.iter().zip(inputs).enumerate() {
        let snark = certificate_snark(&params, &vk, public, read_bytes(path)?).map_err(|_| {
            at(
                path,
                format!(
                    "does not verify as {} in the Poseidon transcript (prove with `tms \
                     prove --transcript poseidon`)",
                    input_name("chunk", i, count)
                ),
            )
        })?;
        snarks.push(snark);
    }
    let samples = vec![certificate_sample(&params, &vk, CHUNK_INPUTS); count];
    Ok((
        snarks,
        samples,
        Box::new(CommitteeChunks { threshold }),
        statement_name(count),
    ))
}

/// Input `i` of `count` in messages: `chunk 2`, or `the chunk` alone in a wrap.
fn input_name(kind: &str, i: usize, count: usize) -> String {
    match count {
        1 => format!("the {kind}"),
        _ => format!("{kind} {i}"),
    }
}

/// `tms chunk join`.
pub fn join(request: &JoinRequest) -> Result<()> {
    let (proofs, publics) = (request.proofs, request.publics);
    if proofs.len() != publics.len() {
        return Err(usage(format!(
            "one --publics statement per proof ({} and {} given)",
            proofs.len(),
            publics.len()
        )));
    }
    check_inputs(proofs.len())?;
    let transcript =
        match request.transcript {
            TranscriptName::Blake2b => return Err(usage(
                "--transcript: a join proof is in the EVM transcript (top join) or the Poseidon \
                 transcript (lower join)",
            )),
            t => t.transcript(),
        };
    let committee = load_committee(request.committee)?;
    let part = request
        .part
        .map(|p| p.parse::<Part>().map_err(|e| usage(format!("--part {e}"))))
        .transpose()?;
    let (covered, what) = match part {
        None => (committee.clone(), "the committee".to_string()),
        Some(part) => {
            if check_chunk_count(part.of).is_err() || part.of > MAX_CHUNKS {
                return Err(usage(format!(
                    "--part {}/{}: the committee splits into a power of two of subtrees, 2 to \
                     {MAX_CHUNKS}",
                    part.index, part.of
                )));
            }
            let parts = committee
                .chunks(part.of)
                .map_err(|e| at(request.committee, e))?;
            (
                parts[part.index].clone(),
                format!("subtree {} of {}", part.index, part.of),
            )
        }
    };
    let (inputs, message, total) = chunk_inputs(&covered, &what, publics)?;
    let threshold = request.threshold.unwrap_or(total);
    if total < threshold {
        return Err(usage(format!(
            "--threshold {threshold}: the inputs prove {total} signers in all"
        )));
    }
    let (snarks, samples, statement, name) = input_snarks(request, &inputs, threshold)?;
    let written = prove_and_write(
        &load_params(request.aggregation_params)?,
        snarks,
        KeySource {
            samples,
            cache: None,
        },
        statement.as_ref(),
        transcript,
        (request.out_proof, request.out_vk),
        |keys| keys.vk_file(&name, None),
    )?;
    if let Some(path) = request.public {
        let shape = serde_json::json!({ "join": name, "covers": what });
        write_json(
            path,
            &PublicFile::new(
                SCHEME,
                shape,
                &covered.commitment(MERKLE),
                &message,
                threshold,
            ),
        )?;
    }
    println!(
        "{}: at least {threshold} of the {} members of {what} signed {}; {written}",
        match proofs.len() {
            1 => "1 input wrapped".to_string(),
            n => format!("{n} inputs joined"),
        },
        covered.keys().len(),
        describe_message(&message, &message_to_field(&message)),
    );
    Ok(())
}

/// The shape of a join tree as `tms chunk join` (and the Ray driver) build it over `chunks`
/// chunk proofs: with `wrap`, a first level joins each chunk alone; then levels of joins of
/// `fanout` inputs while more than `fanout` remain; then the top join. The inputs of each level,
/// bottom first.
pub fn join_tree_levels(chunks: usize, fanout: Option<usize>, wrap: bool) -> Result<Vec<usize>> {
    if check_chunk_count(chunks).is_err() || chunks > MAX_CHUNKS {
        return Err(usage(format!(
            "--chunks {chunks}: a committee splits into a power of two of chunks, 2 to \
             {MAX_CHUNKS}"
        )));
    }
    let fanout = fanout.unwrap_or(chunks);
    if fanout < 2 || !fanout.is_power_of_two() {
        return Err(usage(format!(
            "--fanout {fanout}: a power of two, at least 2"
        )));
    }
    let mut levels = Vec::new();
    let mut inputs = chunks;
    if wrap {
        levels.push(1);
    }
    while inputs > fanout {
        levels.push(fanout);
        inputs /= fanout;
    }
    levels.push(inputs);
    Ok(levels)
}

/// What a join tree's top key is made from: the chunk key (trusted by the caller) and its
/// parameters, the join circuits' parameters and the tree.
pub struct JoinTree<'a> {
    /// The chunk circuit's parameters.
    pub chunk_params: &'a ParamsKZG<Bn256>,
    /// The chunk verifying key.
    pub chunk_vk: &'a VerifyingKey<G1Affine>,
    /// The join circuits' parameters.
    pub aggregation_params: &'a ParamsKZG<Bn256>,
    /// Inputs per level, bottom first ([`join_tree_levels`]).
    pub levels: &'a [usize],
}

/// The top join key file of a join tree, made level by level from stand-ins of each level's
/// inputs, as `tms chunk join` makes each level's key: no proof is needed.
pub fn join_tree_key(tree: &JoinTree, progress: &mut dyn FnMut(usize)) -> Result<Vec<u8>> {
    let aggregation = tree.aggregation_params;
    let mut below: Option<(VerifyingKey<G1Affine>, String)> = None;
    let mut file = Vec::new();
    for (level, &count) in tree.levels.iter().enumerate() {
        progress(level);
        let (samples, statement, name): (Vec<Snark>, Box<dyn Statement>, String) = match &below {
            None => (
                vec![certificate_sample(tree.chunk_params, tree.chunk_vk, CHUNK_INPUTS); count],
                Box::new(CommitteeChunks { threshold: 0 }),
                statement_name(count),
            ),
            Some((vk, name)) => (
                vec![node_sample(aggregation, vk, ACCUMULATOR_LIMBS + CHUNK_INPUTS); count],
                Box::new(JoinedChunks { threshold: 0 }),
                format!("{} of {name}", statement_name(count)),
            ),
        };
        let keys = aggregation_keygen(aggregation, aggregation.k(), samples, statement.as_ref())
            .map_err(|e| CliError(e.to_string()))?;
        file = keys.vk_file(&name, None);
        below = Some((keys.vk().clone(), name));
    }
    Ok(file)
}

/// The chunk key as a verifier may use it: pinned, or regenerated from its shape.
fn trusted_chunk_key(params: &ParamsKZG<Bn256>, trust: KeyTrust) -> Result<VerifyingKey<G1Affine>> {
    let bytes = trust.read()?;
    let (shape, vk) = schnorr_atms::read_vk(&bytes).map_err(|e| at(trust.vk, e))?;
    trust.check_regenerated(&bytes, "its shape", || {
        schnorr_atms::keygen(params, shape)
            .map(|k| k.vk_bytes())
            .map_err(|e| at(trust.vk, e))
    })?;
    check_params_k(trust.vk, params.k(), shape.k)?;
    Ok(vk)
}

/// What `tms chunk keygen` (and `chunk verify --regenerate-vk`) make a join tree's key from.
pub struct JoinTreeArgs<'a> {
    /// The chunk circuit's parameters.
    pub chunk_params: &'a Path,
    /// The chunk key, pinned or regenerated from its shape.
    pub chunk_key: KeyTrust<'a>,
    /// The chunks.
    pub chunks: usize,
    /// Inputs per join (default: all chunks in one join).
    pub fanout: Option<usize>,
    /// Whether each chunk is wrapped alone first.
    pub wrap: bool,
}

impl JoinTreeArgs<'_> {
    /// The top join key file over the join circuits' parameters at `aggregation_params`.
    fn key_file(&self, aggregation_params: &Path) -> Result<Vec<u8>> {
        let levels = join_tree_levels(self.chunks, self.fanout, self.wrap)?;
        let chunk_params = load_params(self.chunk_params)?;
        let chunk_vk = trusted_chunk_key(&chunk_params, self.chunk_key)?;
        let aggregation = load_params(aggregation_params)?;
        let bar = crate::io::spinner("join keygen (minutes, GiB)");
        join_tree_key(
            &JoinTree {
                chunk_params: &chunk_params,
                chunk_vk: &chunk_vk,
                aggregation_params: &aggregation,
                levels: &levels,
            },
            &mut |level| {
                crate::io::stage(
                    &bar,
                    format!("keygen: join level {} of {}", level + 1, levels.len()),
                )
            },
        )
    }
}

/// `tms chunk keygen`: a join tree's top key from the chunk key and the tree alone, as the
/// joins make it; prints the fingerprint a verifier pins.
pub fn keygen(tree: &JoinTreeArgs, aggregation_params: &Path, out_vk: &Path) -> Result<()> {
    let bytes = tree.key_file(aggregation_params)?;
    write_atomic(out_vk, &bytes)?;
    println!(
        "top join key of {} chunks written to {} (fingerprint {})",
        tree.chunks,
        out_vk.display(),
        fingerprint(&bytes)
    );
    Ok(())
}

/// `tms chunk verify`: the statement comes from the trusted committee, the message bytes and
/// the threshold, as for one proof of the whole committee in Merkle mode; with `evm`, the
/// generated verifier and `AtmsCertificateVerifier` check it again in revm.
#[allow(clippy::too_many_arguments)]
pub fn verify(
    committee_path: &Path,
    message: &[u8],
    threshold: u64,
    params_path: &Path,
    key: KeyTrust,
    tree: Option<&JoinTreeArgs>,
    proof_path: &Path,
    evm: bool,
) -> Result<()> {
    if threshold == 0 {
        return Err(usage(
            "--threshold 0: a certificate needs at least one signature",
        ));
    }
    let vk_path = key.vk;
    let vk_file = key.read()?;
    // A malformed file is refused before any regeneration (minutes).
    let committee = load_committee(committee_path)?;
    let (header, vk) = read_vk_file(&vk_file).map_err(|e| at(vk_path, e))?;
    key.check_regenerated(&vk_file, "the chunk key and the join tree", || {
        tree.ok_or_else(|| {
            usage(
                "--regenerate-vk needs the chunk key (--chunk-vk, itself regenerated from its \
                 shape), its --chunk-params and the tree (--chunks, --fanout, --wrap)",
            )
        })?
        .key_file(params_path)
    })?;
    if !header.statement.starts_with(STATEMENT) {
        return Err(at(
            vk_path,
            format!("a key for {:?}, not a chunk join", header.statement),
        ));
    }
    let root = committee.commitment(MERKLE);
    let m = message_to_field(message);
    if !verifies(
        params_path,
        &header,
        &vk,
        proof_path,
        vec![root, m, Fr::from(threshold)],
    )? {
        return Err(at(
            proof_path,
            "the join proof does not verify for this committee, message and threshold",
        ));
    }
    println!(
        "verified: at least {threshold} of the {} members of committee {} (Merkle root) signed \
         {} ({})",
        committee.keys().len(),
        committee_path.display(),
        describe_message(message, &m),
        header.statement
    );
    println!("  {}", key.describe(&vk_file));
    if evm {
        let trusted = Trusted::Atms {
            committee: root,
            threshold,
        };
        let proof_file = read_bytes(proof_path)?;
        let (mut public_inputs, _) =
            split_proof_file(&proof_file).map_err(|e| at(proof_path, e))?;
        public_inputs.extend([root, m, Fr::from(threshold)]);
        let params = load_params(params_path)?;
        let bar = crate::io::spinner("generating, compiling and running the verifier in revm");
        let contracts = Contracts::build_with_accumulator(
            &params,
            &vk,
            header.num_instances,
            ACCUMULATOR_LIMBS,
            trusted.kind(),
        )
        .map_err(|e| CliError(e.to_string()))?;
        let gas = GasReport::measure(&contracts, &trusted, &public_inputs, message, &proof_file)
            .map_err(|e| at(proof_path, format!("on the EVM: {e}")))?;
        bar.finish_and_clear();
        println!(
            "verified on the EVM (revm): AtmsCertificateVerifier bound to the committee root and t = \
             {threshold} accepts verifyCertificate(message, proof); {gas}"
        );
    }
    Ok(())
}
