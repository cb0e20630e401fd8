//! The Groth16 wrapper of a BN254 certificate (issue 47): `tms wrap` (the certificate's verifier
//! recorded as a program and proved in Groth16 by the Go program of `evm/groth16`), the native
//! verification of a wrapped proof behind `tms verify --groth16-key`, and `tms export-plutus
//! --groth16` (the Plutus validator of a wrapper's key).
//!
//! The Go program is built by the tool itself: `go build` of `evm/groth16` into the folder of
//! the running `tms` (its target directory) on first use, again when a Go source is newer
//! (`TMS_GROTH16_BIN` names a built one instead). Without Go, one line says so.

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
    time::SystemTime,
};

use num_bigint::BigUint;
use tms_cardano::plutus::{
    groth16::{Groth16Error, Groth16Key, Groth16Verifier},
    MessageRule,
};
use tms_gadgets::proving::keys::fingerprint;

use crate::{
    backends::cardano::{write_bridge_export, BridgeOut},
    formats::bytes_from_hex,
    interface::{Groth16Trust, WrapSetup, WrapTarget},
    io::{at, read_bytes, usage, write_atomic, CliError, Result},
    options::{PlutusForm, Scheme},
};

/// BN254's scalar field order: a statement word of a BN254 certificate is below it.
fn bn254_r() -> BigUint {
    tms_cardano::plutus::BN254_R
        .parse()
        .expect("a decimal constant")
}

/// The newest modification time of the Go module's sources.
fn newest_source(src: &Path) -> Result<SystemTime> {
    let mut newest = SystemTime::UNIX_EPOCH;
    for e in fs::read_dir(src).map_err(|e| at(src, format!("cannot read: {e}")))? {
        let e = e.map_err(|e| at(src, format!("cannot read: {e}")))?;
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".go") || name == "go.mod" || name == "go.sum" {
            if let Ok(t) = e.metadata().and_then(|m| m.modified()) {
                newest = newest.max(t);
            }
        }
    }
    Ok(newest)
}

/// The Go program of `evm/groth16` (`groth16`), built on first use (see the module's docs).
pub fn groth16_tool() -> Result<PathBuf> {
    if let Some(bin) = std::env::var_os("TMS_GROTH16_BIN") {
        return Ok(bin.into());
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("evm/groth16");
    if !src.join("go.mod").exists() {
        return Err(CliError(format!(
            "the Groth16 wrapper is the Go program of evm/groth16, and {} is not there: set \
             TMS_GROTH16_BIN to a built one",
            src.display()
        )));
    }
    let exe = std::env::current_exe()
        .map_err(|e| CliError(format!("cannot locate the running tms: {e}")))?;
    let dir = exe.parent().unwrap_or(Path::new("."));
    let bin = dir.join("tms-groth16");
    let built = fs::metadata(&bin).and_then(|m| m.modified()).ok();
    if built.is_some_and(|t| t >= newest_source(&src).unwrap_or(SystemTime::now())) {
        return Ok(bin);
    }
    // Built under a name of this process, then renamed: two builds at once both succeed.
    let tmp = dir.join(format!("tms-groth16.{}.tmp", std::process::id()));
    eprintln!(
        "building the Groth16 wrapper (go build of {} into {})",
        src.display(),
        bin.display()
    );
    let status = Command::new("go")
        .arg("build")
        .arg("-o")
        .arg(&tmp)
        .arg(".")
        .current_dir(&src)
        .status();
    match status {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(CliError(
            "the Groth16 wrapper needs Go (1.25 or later, for gnark v0.16.1) to build \
             evm/groth16: `go` is not on PATH"
                .into(),
        )),
        Err(e) => Err(CliError(format!("cannot run go build: {e}"))),
        Ok(s) if !s.success() => {
            let _ = fs::remove_file(&tmp);
            Err(CliError(format!(
                "go build of {} failed ({s}): see above",
                src.display()
            )))
        }
        Ok(_) => {
            fs::rename(&tmp, &bin).map_err(|e| at(&bin, format!("cannot write: {e}")))?;
            Ok(bin)
        }
    }
}

/// Runs the Go program with `args`, its output passed through.
fn run_tool(args: &[&std::ffi::OsStr]) -> Result<()> {
    let tool = groth16_tool()?;
    let status = Command::new(&tool)
        .args(args)
        .status()
        .map_err(|e| at(&tool, format!("cannot run: {e}")))?;
    if !status.success() {
        return Err(CliError(format!(
            "the Groth16 wrapper ({}) failed ({status}): see above",
            tool.display()
        )));
    }
    Ok(())
}

/// A Groth16 key file, pinned by its SHA-256, parsed and trusted (see [`Groth16Key::trusted`]).
fn read_key(
    path: &Path,
    pin: Option<&str>,
    insecure_test_key: bool,
) -> Result<(Groth16Key, String)> {
    let bytes = read_bytes(path)?;
    let actual = fingerprint(&bytes);
    match pin {
        None => {
            return Err(at(
                path,
                format!(
                    "a Groth16 key is trusted only when pinned: give --groth16-fingerprint \
                     {actual} if this is the key you made or audited"
                ),
            ))
        }
        Some(pin) if !actual.eq_ignore_ascii_case(pin.trim_start_matches("0x")) => {
            return Err(at(
                path,
                format!("fingerprint {actual} differs from --groth16-fingerprint {pin}"),
            ))
        }
        Some(_) => {}
    }
    let text = std::str::from_utf8(&bytes).map_err(|_| {
        at(
            path,
            "not a Groth16 key (BLS12-381 JSON, `plutus-key.json`)",
        )
    })?;
    let key = Groth16Key::from_json(text)
        .and_then(|k| k.trusted(insecure_test_key))
        .map_err(|e| match e {
            Groth16Error::Insecure(_) | Groth16Error::Unproven { .. } => at(
                path,
                format!("{e} (--insecure-test-key / --insecure-test for a test)"),
            ),
            e => at(path, e),
        })?;
    Ok((key, actual))
}

/// What `wrapped.json` (`program-prove-bls`) holds: the prover's statement words and the proof.
fn read_wrapped(path: &Path) -> Result<(Option<Vec<BigUint>>, Vec<u8>)> {
    let text = fs::read_to_string(path).map_err(|e| at(path, format!("cannot read: {e}")))?;
    let v: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| at(path, format!("not a wrapped proof (wrapped.json): {e}")))?;
    let proof = v
        .get("proof")
        .and_then(|p| p.as_str())
        .ok_or_else(|| at(path, "not a wrapped proof: no \"proof\" (hex)"))?;
    let proof = hex_bytes(proof).ok_or_else(|| at(path, "\"proof\" is not hex"))?;
    let public = match v.get("public").and_then(|p| p.as_array()) {
        None => None,
        Some(words) => Some(
            words
                .iter()
                .map(|w| w.as_str().and_then(|s| s.parse::<BigUint>().ok()))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| at(path, "\"public\" is not a list of decimal words"))?,
        ),
    };
    Ok((public, proof))
}

fn hex_bytes(s: &str) -> Option<Vec<u8>> {
    bytes_from_hex(&format!("0x{}", s.trim_start_matches("0x")), "proof").ok()
}

/// `tms verify --groth16-key`: the wrapped proof at `proof` for the trusted statement `words`
/// (built by the verifier), under the pinned key. Returns how the key was trusted.
pub fn verify_wrapped(g: &Groth16Trust, proof: &Path, words: &[BigUint]) -> Result<String> {
    let (key, fp) = read_key(&g.key, g.fingerprint.as_deref(), g.insecure_test_key)?;
    let (claimed, bytes) = read_wrapped(proof)?;
    if claimed.as_deref().is_some_and(|c| c != words) {
        return Err(at(
            proof,
            "the wrapped proof says another statement than the trusted one (committee or \
             registration, message, threshold)",
        ));
    }
    key.verify(&bytes, words).map_err(|e| {
        at(
            proof,
            format!(
                "{e} (for the trusted statement: committee or registration, message, threshold)"
            ),
        )
    })?;
    Ok(format!(
        "Groth16 wrapper key {} pinned (sha256 {fp}; setup: {})",
        g.key.display(),
        key.setup()
    ))
}

/// `tms wrap`, once the certificate has verified: the program and witness written to
/// `args.out`, then the Go program's wrapper (or, with `--program-only`, its native replay).
pub fn run(
    args: &WrapSetup,
    program: &tms_evm::groth16::Program,
    witness: &tms_evm::groth16::ProgramWitness,
    words: &[BigUint],
) -> Result<()> {
    let out = &args.out;
    let mut program = program.clone();
    if args.hash_statement {
        program.statement_hash = Some("keccak256".into());
    }
    let program = &program;
    fs::create_dir_all(out).map_err(|e| at(out, format!("cannot create: {e}")))?;
    let program_file = out.join("program.json");
    let witness_file = out.join("witness.json");
    let json = |r: serde_json::Result<String>| r.expect("a recorded program serializes");
    write_atomic(
        &program_file,
        json(serde_json::to_string(program)).as_bytes(),
    )?;
    write_atomic(
        &witness_file,
        json(serde_json::to_string(witness)).as_bytes(),
    )?;
    println!(
        "recorded the certificate's verifier: {} ops, {} proof scalars, {} proof points; {} and \
         {}",
        program.ops.len(),
        program.num_proof_scalars,
        program.num_proof_points,
        program_file.display(),
        witness_file.display()
    );
    let os = |s: &str| std::ffi::OsString::from(s);
    let mut cmd: Vec<std::ffi::OsString> = vec![];
    let base = |name: &str| {
        vec![
            os(name),
            os("-program"),
            program_file.clone().into(),
            os("-witness"),
            witness_file.clone().into(),
        ]
    };
    if args.program_only {
        cmd.extend(base("program-check"));
        cmd.extend([os("-engine"), os("native")]);
    } else {
        match args.target {
            WrapTarget::Cardano => cmd.extend(base("program-prove-bls")),
            WrapTarget::Evm => cmd.extend(base("program-prove")),
        }
        cmd.extend([os("-out"), out.clone().into()]);
        if let Some(kept) = &args.kept_circuit {
            cmd.extend([os("-circuit"), kept.clone().into()]);
        }
        match (&args.insecure_test_seed, &args.keys, args.target) {
            (Some(seed), None, WrapTarget::Cardano) => cmd.extend([os("-seed"), os(seed)]),
            (Some(seed), None, WrapTarget::Evm) => cmd.extend([
                os("-seed"),
                os(seed),
                os("-insecure-test-key"),
                os("-keep-vk"),
                out.join("verifying_key.bin").into(),
            ]),
            (None, Some((pk, vk)), WrapTarget::Cardano) => cmd.extend([
                os("-pk"),
                pk.clone().into(),
                os("-plutus-key"),
                vk.clone().into(),
            ]),
            (None, Some((pk, vk)), WrapTarget::Evm) => {
                cmd.extend([os("-pk"), pk.clone().into(), os("-vk"), vk.clone().into()])
            }
            _ => {
                return Err(usage(
                    "tms wrap: give --insecure-test-seed SEED (an INSECURE test setup) or \
                     --groth16-pk PK --groth16-vk VK (a ceremony's keys)",
                ))
            }
        }
    }
    let refs: Vec<&std::ffi::OsStr> = cmd.iter().map(|s| s.as_os_str()).collect();
    run_tool(&refs)?;
    if args.program_only {
        println!(
            "the Go program's native replay accepts the recorded verifier (no Groth16 setup or \
             proof: --program-only); {} is what `ceremony-init -program` takes",
            program_file.display()
        );
        return Ok(());
    }
    if args.target == WrapTarget::Cardano {
        // The proof again, by this tool's own verifier (independent of the Go twin).
        let key_file = out.join("plutus-key.json");
        let text = fs::read_to_string(&key_file)
            .map_err(|e| at(&key_file, format!("cannot read: {e}")))?;
        let key = Groth16Key::from_json(&text).map_err(|e| at(&key_file, e))?;
        let (_, proof) = read_wrapped(&out.join("wrapped.json"))?;
        key.verify(&proof, words)
            .map_err(|e| at(&out.join("wrapped.json"), e))?;
        println!(
            "wrapped: {} ({} bytes), verified natively for the trusted statement; key {} \
             (fingerprint {}; setup: {})",
            out.join("wrapped.json").display(),
            proof.len(),
            key_file.display(),
            fingerprint(text.as_bytes()),
            key.setup()
        );
    }
    Ok(())
}

/// What `tms export-plutus --groth16` is given.
pub struct ExportGroth16Args<'a> {
    /// The scheme the wrapped certificates are of.
    pub scheme: Scheme,
    /// The wrapper's key (`plutus-key.json`) and its pinned SHA-256.
    pub key: &'a Path,
    /// Its expected SHA-256.
    pub fingerprint: Option<&'a str>,
    /// The trusted commitment (ATMS) or registration digest (Mithril), 0x-hex.
    pub commitment: &'a str,
    /// The threshold (ATMS).
    pub threshold: Option<u64>,
    /// Accept a seeded (INSECURE) key: the script is then named so.
    pub insecure_test: bool,
    /// Where and which script.
    pub bridge: BridgeOut<'a>,
}

/// `tms export-plutus --groth16`: the state-thread or observer validator of a Groth16
/// wrapper's key, the trusted statement as its parameters (or genesis datum); the message is the
/// BN254 schemes' (`keccak-256(bytes) mod r_BN254`), which the wrapped certificate signs.
pub fn export_plutus_groth16(a: &ExportGroth16Args) -> Result<()> {
    use tms_cardano::backend::Fr;
    if a.bridge.form == PlutusForm::Example {
        return Err(usage(
            "--groth16: --form state-thread or observer (the example validator is the halo2 \
             verifier's)",
        ));
    }
    if a.bridge.protocol_version != 10 {
        return Err(usage(
            "--groth16: the Groth16 verifier uses PV 10's builtins only (--protocol-version 10)",
        ));
    }
    let (key, fp) = read_key(a.key, a.fingerprint, a.insecure_test)?;
    let word = |s: &str, what: &str| -> Result<Fr> {
        let b = bytes_from_hex(s, what).map_err(usage)?;
        let v = BigUint::from_bytes_be(&b);
        if b.len() > 32 || v >= bn254_r() {
            return Err(usage(format!(
                "{what}: a BN254 field element (below its r)"
            )));
        }
        let mut le = v.to_bytes_le();
        le.resize(32, 0);
        Ok(Option::from(<Fr as ff::PrimeField>::from_repr(
            le.try_into().expect("32 bytes"),
        ))
        .expect("below BN254's r, so below BLS12-381's"))
    };
    let commitment = word(a.commitment, "--commitment")?;
    let (statement, threshold_at) = match (a.scheme, a.threshold) {
        (Scheme::SchnorrAtms | Scheme::BlsAtms, Some(t)) if t > 0 => {
            (vec![Some(commitment), None, Some(Fr::from(t))], Some(2))
        }
        (Scheme::SchnorrAtms | Scheme::BlsAtms, _) => {
            return Err(usage(
                "--threshold: the threshold the script requires (at least 1)",
            ))
        }
        (Scheme::Mithril, None) => (vec![Some(commitment), None], None),
        (Scheme::Mithril, Some(_)) => {
            return Err(usage(
                "--threshold: a Mithril certificate proves the registration's quorum",
            ))
        }
    };
    if key.n_inputs() != statement.len() {
        return Err(at(
            a.key,
            format!(
                "a Groth16 key of {} inputs, for a {} statement of {}",
                key.n_inputs(),
                a.scheme.name(),
                statement.len()
            ),
        ));
    }
    let verifier = Groth16Verifier {
        scheme: a.scheme.name(),
        key: &key,
        message: MessageRule::Keccak256Bn254,
    };
    // Marked as a test script unless the key passes without the test flag.
    let insecure = key.clone().trusted(false).is_err();
    let note = insecure.then_some(
        "This script was made from a Groth16 key made without a ceremony (an INSECURE seeded \
         setup, or one whose ceremony record was not checked): anyone with the seed can forge \
         proofs under it. For tests only: never deploy it. Export a key of a ceremony \
         (ceremony-extract -plutus-key) for a deployable script.\n",
    );
    println!(
        "Groth16 wrapper key {} (sha256 {fp}; setup: {}{})",
        a.key.display(),
        key.setup(),
        if key.has_ceremony_record() {
            "; its phase-2 delta chain holds"
        } else {
            ""
        }
    );
    write_bridge_export(
        &a.bridge,
        a.scheme,
        &verifier,
        &statement,
        threshold_at,
        note,
    )
}
