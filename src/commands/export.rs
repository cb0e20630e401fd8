//! `tms export-verifier`: the Solidity verifier of a BN254 verifying key (a certificate key of
//! any scheme, or an aggregation key) and the contract in front of it.

use std::path::Path;

use halo2_base::halo2_proofs::{
    halo2curves::bn256::Bn256,
    poly::{commitment::Params, kzg::commitment::ParamsKZG},
};
use tms_evm::{
    certificate::{self, Contracts, Trusted},
    machine::Machine,
    EIP170_LIMIT,
};
use tms_gadgets::Fr;

use super::{aggregate, chain, chunk};
use crate::{
    checks::check_params_k,
    formats::bytes_to_hex,
    interface::{CertificateScheme, KeyTrust},
    io::{at, load_params, write_atomic, CliError, Result},
    options::Scheme,
    schemes::{bls::bn254::BlsBn254, mithril::bn254::MithrilBn254, schnorr::bn254::SchnorrBn254},
};

/// Keygen again from what the exporter holds: the verifying key file of a certificate shape.
type Regenerate<'a> = Box<dyn FnOnce(&ParamsKZG<Bn256>) -> Result<Vec<u8>> + 'a>;

/// The contract in front of a `tms aggregate` key whose header says `statement` ("aggregate
/// <scheme> x<N>"): one certificate (the final wrapper) gets that certificate's contract; N
/// SNARK-Mithril certificates `MithrilBatchVerifier` (N under one registration); `None` for N
/// certificates of an ATMS, whose statements a contract would take from the caller.
fn aggregate_contract(statement: &str) -> Option<Trusted> {
    let count: usize = statement.rsplit_once(" x")?.1.parse().ok()?;
    let scheme = <Scheme as clap::ValueEnum>::value_variants()
        .iter()
        .find(|s| aggregate::statement_name(**s, count) == statement)?;
    match (scheme, count) {
        (Scheme::SchnorrAtms | Scheme::BlsAtms, 1) => Some(Trusted::Atms {
            committee: Fr::zero(),
            threshold: 1,
        }),
        (Scheme::Mithril, 1) => Some(Trusted::Mithril {
            registration: Fr::zero(),
        }),
        (Scheme::Mithril, 2..) => Some(Trusted::MithrilBatch {
            registration: Fr::zero(),
            certificates: count,
        }),
        _ => None,
    }
}

/// `tms export-verifier`: the generated Solidity verifier of a verifying key file,
/// `CertificateVerifier.sol` tied to it (its code hash, public-input count, accumulator words
/// and exact proof length written in) and the creation bytecode of the verifier and of the
/// contract for the key's statement, written to `out`; both are deployed in revm, the contract
/// in front of the verifier, and the verifier's size is checked against EIP-170. An aggregation
/// key file (a chunk join or a chain root, `tms-aggregation-vk-v1`) says what it proves in its
/// header; any other key is `scheme`'s certificate key. A contract verifies whatever key it is
/// generated from, so the key file is trusted as by `verify` (`trust`: pinned, or for a
/// certificate key regenerated from its shape).
pub fn export_verifier(
    scheme: Scheme,
    trust: KeyTrust<'_>,
    params_path: &Path,
    out: &Path,
) -> Result<()> {
    use tms_aggregation::ACCUMULATOR_LIMBS;
    let vk_path = trust.vk;
    let params = load_params(params_path)?;
    let vk_file = trust.read()?;
    refuse_step_key(vk_path, &vk_file)?;
    // What regenerating the key takes: a certificate key's shape (an aggregation key needs its
    // inner keys: its own keygen command prints the fingerprint to pin).
    let mut regenerate: Option<Regenerate> = None;
    let on_vk = |e: &dyn std::fmt::Display| at(vk_path, e);
    // The contract in front of the verifier, with placeholder trusted values (a deployment
    // sets its own): none where a contract cannot build the statement.
    let atms = Trusted::Atms {
        committee: Fr::zero(),
        threshold: 1,
    };
    let (what, k, vk, num_instances, accumulator, trusted) =
        if let Ok((header, vk)) = tms_aggregation::read_vk_file(&vk_file) {
            let trusted = if header.statement == chain::STATEMENT
                || header.statement == chain::WRAPPED_STATEMENT
            {
                Some(Trusted::Chain {
                    genesis: Fr::zero(),
                })
            } else if header.statement.starts_with(chunk::STATEMENT) {
                Some(atms)
            } else {
                // `tms aggregate`: N statements in one proof (see `aggregate_contract`).
                aggregate_contract(&header.statement)
            };
            (
                header.statement,
                header.config.degree,
                vk,
                header.num_instances,
                ACCUMULATOR_LIMBS,
                trusted,
            )
        } else {
            match scheme {
                Scheme::SchnorrAtms => {
                    let (shape, vk) = schnorr_atms::read_vk(&vk_file).map_err(|e| on_vk(&e))?;
                    regenerate = Some(Box::new(move |p| {
                        SchnorrBn254::regenerate_vk(p, &shape, vk_path)
                    }));
                    let n = schnorr_atms::AtmsInstance::NUM_PUBLIC_INPUTS;
                    (scheme.name().to_string(), shape.k, vk, n, 0, Some(atms))
                }
                Scheme::BlsAtms => {
                    // `[committee digest, m, t]`: the ATMS layout (the circuit hashes m to G2).
                    let (shape, vk) = bls_atms::read_vk(&vk_file).map_err(|e| on_vk(&e))?;
                    regenerate = Some(Box::new(move |p| {
                        BlsBn254::regenerate_vk(p, &shape, vk_path)
                    }));
                    let n = bls_atms::AtmsInstance::NUM_PUBLIC_INPUTS;
                    (scheme.name().to_string(), shape.k, vk, n, 0, Some(atms))
                }
                Scheme::Mithril => {
                    let (shape, vk) = mithril_snark::read_vk(&vk_file).map_err(|e| on_vk(&e))?;
                    regenerate = Some(Box::new(move |p| {
                        MithrilBn254::regenerate_vk(p, &shape, vk_path)
                    }));
                    let n = mithril_snark::MithrilInstance::NUM_PUBLIC_INPUTS;
                    let trusted = Trusted::Mithril {
                        registration: Fr::zero(),
                    };
                    (scheme.name().to_string(), shape.k, vk, n, 0, Some(trusted))
                }
            }
        };
    check_params_k(params_path, params.k(), k)?;
    if trust.regenerate {
        let regenerate = regenerate.ok_or_else(|| {
            at(
                vk_path,
                "an aggregation key is regenerated from its inner keys: pin it with \
                 --vk-fingerprint (its keygen command printed it)",
            )
        })?;
        trust.check_regenerated(&vk_file, "its shape", || regenerate(&params))?;
    }
    let bar = crate::io::spinner("generating and compiling the verifier");
    // Not the key file's fault when solc-js is missing: the error names what to install.
    // The key's statement kind, from its header: the one contract that may stand in front.
    let kind = trusted
        .as_ref()
        .map_or(certificate::StatementKind::Unbound, Trusted::kind);
    let contracts =
        Contracts::build_with_accumulator(&params, &vk, num_instances, accumulator, kind)
            .map_err(|e| CliError(e.to_string()))?;
    bar.finish_and_clear();
    std::fs::create_dir_all(out).map_err(|e| at(out, e))?;
    let mut files: Vec<(String, Vec<u8>)> = vec![
        (
            "Halo2Verifier.sol".into(),
            contracts.verifier_source.clone().into_bytes(),
        ),
        (
            "Halo2Verifier.bin".into(),
            hex_line(&contracts.verifier.creation),
        ),
    ];
    if let Some(trusted) = &trusted {
        let wrapper = contracts
            .wrapper(trusted)
            .map_err(|e| CliError(e.to_string()))?;
        files.push((
            certificate::FILE.into(),
            contracts.wrapper_source.clone().into_bytes(),
        ));
        files.push((
            format!("{}.bin", trusted.contract()),
            hex_line(&wrapper.creation),
        ));
    }
    for (name, bytes) in &files {
        write_atomic(&out.join(name), bytes)?;
    }
    let mut machine = Machine::new(false);
    let deployed = machine
        .deploy(contracts.verifier.creation.clone())
        .map_err(|e| CliError(e.to_string()))?;
    let size = contracts.verifier.runtime.len();
    println!(
        "Halo2Verifier ({what}, {num_instances} public inputs, {accumulator} of them accumulator \
         limbs; proofs of exactly {} bytes): {size} bytes deployed ({}), deployment {} gas",
        contracts.binding.proof_length,
        if size <= EIP170_LIMIT {
            format!("within EIP-170's {EIP170_LIMIT}")
        } else {
            format!("OVER EIP-170's {EIP170_LIMIT}: mainnet refuses it")
        },
        deployed.gas
    );
    match trusted {
        Some(trusted) => {
            // The exported pair deploys together (the constructor checks the verifier's code).
            let code = contracts
                .creation_code(&trusted, deployed.address)
                .map_err(|e| CliError(e.to_string()))?;
            machine.deploy(code).map_err(|e| CliError(e.to_string()))?;
            let arguments = match trusted {
                Trusted::Atms { .. } => "committee commitment, threshold",
                Trusted::Mithril { .. } | Trusted::MithrilBatch { .. } => "registration digest",
                Trusted::Chain { .. } => "genesis registration digest",
            };
            println!(
                "{}: {} bytes deployed; constructor(verifier, {arguments}); tied to this \
                 Halo2Verifier.bin (code hash {}): deploy that file as written",
                trusted.contract(),
                contracts.wrapper(&trusted).map_or(0, |c| c.runtime.len()),
                bytes_to_hex(&contracts.binding.verifier_codehash),
            );
        }
        None => println!(
            "no contract for this statement in {}: a caller builds the public inputs itself, \
             as canonical words below r",
            certificate::FILE
        ),
    }
    println!("  {}", trust.describe(&vk_file));
    println!("written to {}", out.display());
    Ok(())
}

/// Refuses a chain step key (from its header alone): a step proof's last public input is the
/// digest of the key it was verified under, which a bare verifier does not check (a stand-in
/// circuit of the step's shape makes the base case, so any genesis would pass), so no contract
/// is made for it.
fn refuse_step_key(vk_path: &Path, vk_file: &[u8]) -> Result<()> {
    match tms_aggregation::snark::read_vk_header(vk_file) {
        Ok((header, _)) if header.statement == chain::STEP_STATEMENT => Err(at(
            vk_path,
            "a chain step key: its proofs carry the step key's digest, which a bare verifier \
             does not check; wrap the chain for contracts (`tms chain wrap`) and export the \
             wrapped key (`tms chain keygen --wrapped` makes it from the certificate key)",
        )),
        _ => Ok(()),
    }
}

fn hex_line(bytes: &[u8]) -> Vec<u8> {
    format!("{}\n", bytes_to_hex(bytes)).into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_certificate_gets_its_contract_and_n_mithril_the_batch() {
        let name = |statement: &str| aggregate_contract(statement).map(|t| t.contract());
        assert_eq!(
            name("aggregate schnorr-atms x1"),
            Some("AtmsCertificateVerifier")
        );
        assert_eq!(
            name("aggregate bls-atms x1"),
            Some("AtmsCertificateVerifier")
        );
        assert_eq!(
            name("aggregate mithril x1"),
            Some("MithrilCertificateVerifier")
        );
        assert_eq!(name("aggregate mithril x2"), Some("MithrilBatchVerifier"));
        assert_eq!(
            aggregate_contract("aggregate mithril x4").map(|t| t.statement_words()),
            Some(8)
        );
        assert_eq!(name("aggregate schnorr-atms x11"), None);
        assert_eq!(name("aggregate mithril x"), None);
        assert_eq!(name("aggregate mithril x0"), None);
        assert_eq!(name("aggregate mithril x2 "), None);
        assert_eq!(name("mithril-chain"), None);
    }
}
