//! Our column on mithril-stm's own certificate: the registration mithril-stm closes and the
//! single signatures its signers make (the `stm` column's, from the same seed: the same keys,
//! stakes, targets and message, so the same commitment points `sigma` and the same lottery wins;
//! only the Schnorr nonces, drawn by mithril-stm from the OS, differ), read through its public
//! API and serde formats and proved by our mithril-stm mode (`mithril_jubjub::stm`) on the
//! Cardano backend.
//!
//! "prove" is measured as the `stm` column's is, from the collected single signatures to the
//! proof bytes: reading them, the aggregation (each signature checked, its won indices replayed,
//! the k lowest chosen, the paths taken), the witness and the halo2 proof.

use mithril_jubjub::stm::{
    native::{aggregate, StmCertificate, StmSignature, StmTree},
    prover::{keygen, min_k, prove, verify},
    StmInstance, StmShape, StmWitness,
};
use mithril_stm::SingleSignature;
use tms_cardano::scheme::layout_stats;

use crate::report::{Measurement, Timings};
use crate::stm::{register, Signing};
use crate::stm_read::{read_leaves, read_root, read_signature};
use crate::usage::{self, timed, Timing};
use crate::Config;

/// Reads mithril-stm's single signatures and aggregates them.
fn aggregate_stm(
    tree: &StmTree,
    config: &Config,
    message: &[u8; 32],
    signatures: &[SingleSignature],
) -> Result<StmCertificate, String> {
    let read: Vec<(usize, StmSignature)> = signatures
        .iter()
        .map(read_signature)
        .collect::<Result<_, _>>()?;
    aggregate(
        tree,
        (config.m, config.quorum),
        mithril_jubjub::stm::native::message_to_field(message),
        &read,
    )
    .map_err(|e| e.to_string())
}

/// Runs our mithril-stm mode once on mithril-stm's certificate of `config`.
pub fn run(config: &Config) -> Result<Measurement, String> {
    let registered = register(config, "ours-stm")?;
    let leaves = read_leaves(&registered.closed)?;
    let tree = StmTree::new(&leaves).map_err(|e| e.to_string())?;
    let root = read_root(&registered.parameters, &registered.closed)?;
    if tree.root() != root {
        return Err("our registration tree's root is not mithril-stm's".into());
    }
    let mut signing = Signing::new(&registered);
    signing.sign_until(1.25 * config.quorum as f64 + 8.0);
    let certificate = loop {
        match aggregate_stm(&tree, config, &registered.message, &signing.signatures) {
            Ok(certificate) => break certificate,
            Err(e) => {
                let before = signing.tried;
                signing.sign_until(signing.expected_indices() + 0.25 * config.quorum as f64 + 8.0);
                if signing.tried == before {
                    return Err(format!("aggregation: {e}"));
                }
            }
        }
    };
    eprintln!(
        "[ours-stm] {} mithril-stm signatures of {} parties tried, {} signers in the certificate",
        signing.signatures.len(),
        signing.tried,
        certificate.signers.len()
    );
    let instance = StmInstance::from_trusted(root, &registered.message);
    let probe = StmShape {
        signer_slots: certificate.signers.len(),
        index_slots: config.quorum as usize,
        m: config.m,
        k: 10,
        ladder: Default::default(),
    };
    let (k, layout_timing) = timed(|| min_k(&probe));
    let shape = StmShape { k, ..probe };
    let stats = layout_stats(&shape);
    eprintln!(
        "[ours-stm] {} signer slots, {} index slots: k = {k} ({} rows, {} advice columns; found in {:.1} s)",
        shape.signer_slots,
        shape.index_slots,
        stats.rows,
        stats.advice_columns,
        layout_timing.wall.as_secs_f64()
    );
    let (kzg, setup) = timed(|| tms_cardano::backend::kzg_params(k));
    let (keys, keygen_timing) = timed(|| keygen(&kzg, shape));
    let keys = keys.map_err(|e| format!("keygen: {e}"))?;
    eprintln!(
        "[ours-stm] parameters {:.1} s, keygen {:.1} s wall, {:.1} CPU-s",
        setup.wall.as_secs_f64(),
        keygen_timing.wall.as_secs_f64(),
        keygen_timing.cpu.as_secs_f64()
    );

    let hwm_reset = usage::reset_vm_hwm();
    let (proved, prove_timing) = timed(|| {
        let (certificate, aggregation) =
            timed(|| aggregate_stm(&tree, config, &registered.message, &signing.signatures));
        let certificate = certificate?;
        let (witness, preparation) = timed(|| StmWitness::new(shape, instance, &certificate));
        let witness = witness.map_err(|e| format!("witness: {e}"))?;
        let (proof, proving) = timed(|| prove(&kzg, &keys, &witness, rand_core::OsRng));
        eprintln!(
            "[ours-stm] prove phases (CPU-s): reading and aggregation {:.2}, witness {:.2}, proof {:.2}",
            aggregation.cpu.as_secs_f64(),
            preparation.cpu.as_secs_f64(),
            proving.cpu.as_secs_f64()
        );
        proof.map_err(|e| format!("prove: {e}"))
    });
    let prove_peak = if hwm_reset {
        usage::vm_hwm_bytes()
    } else {
        None
    };
    let proof = proved?;
    eprintln!(
        "[ours-stm] prove {:.1} s wall, {:.1} CPU-s, proof {} B",
        prove_timing.wall.as_secs_f64(),
        prove_timing.cpu.as_secs_f64(),
        proof.len()
    );

    // Verification from what a verifier holds: mithril-stm's aggregate key's root and the
    // message bytes (median of 5); the same proof refused for another message.
    let vp = kzg.verifier_params();
    let mut verify_times = Vec::new();
    for _ in 0..5 {
        let (verdict, t) = timed(|| verify(&vp, keys.vk(), &instance, &proof));
        verdict.map_err(|e| format!("the honest proof was refused: {e}"))?;
        verify_times.push(t.wall);
    }
    verify_times.sort();
    let mut other = registered.message;
    other[0] ^= 1;
    if verify(
        &vp,
        keys.vk(),
        &StmInstance::from_trusted(root, &other),
        &proof,
    )
    .is_ok()
    {
        return Err("the proof verified against another message".into());
    }

    Ok(Measurement {
        system: "ours, mithril-stm mode (mithril-jubjub::stm)",
        circuit: format!(
            "2^{k} rows, {} advice cols, {} signer slots",
            stats.advice_columns, shape.signer_slots
        ),
        signers: shape.signer_slots,
        timings: Timings {
            setup,
            keygen: Timing {
                wall: keygen_timing.wall,
                cpu: keygen_timing.cpu,
            },
            prove: prove_timing,
            verify: verify_times[verify_times.len() / 2],
        },
        proof_bytes: proof.len(),
        serialized_bytes: proof.len(),
        prove_peak_bytes: prove_peak,
        process_peak_bytes: usage::process_peak_rss_bytes(),
        plutus: None,
    })
}
