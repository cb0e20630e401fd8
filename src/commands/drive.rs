//! The generic flows of `keygen`, `prove`, `verify` and `demo` over any (scheme, backend) pair,
//! and [`driver`], which hands a command the pair it names.

use std::{
    marker::PhantomData,
    path::{Path, PathBuf},
    time::Instant,
};

use clap::ValueEnum;

use tms_gadgets::proving::{keys::fingerprint, stats::phase, Transcript};

use super::print_json;
use crate::checks::{check_params_k, check_statement};
use crate::schemes::bls::bn254::BlsBn254;
use crate::schemes::mithril::bn254::MithrilBn254;
use crate::schemes::mithril::cardano::MithrilCardano;
use crate::schemes::mithril::stm::MithrilStm;
use crate::schemes::schnorr::bn254::SchnorrBn254;
use crate::schemes::schnorr::cardano::SchnorrCardano;
use crate::{
    formats::PublicFile,
    interface::{
        CertificateScheme, CertifyArgs, CommitteeArgs, Driver, KeygenArgs, ProofOutput, ProveArgs,
        ProvingBackend, Rejection, ServeArgs, SignArgs, VerifyArgs, WrapArgs,
    },
    io::{at, read_bytes, read_json_on, spinner, usage, write_atomic, CliError, Result},
    options::{Backend, Scheme, TranscriptName},
};

/// The pair a command names: every scheme on BN254; the Schnorr ATMS and SNARK-Mithril on
/// Cardano.
pub fn driver(scheme: Scheme, backend: Backend) -> Result<&'static dyn Driver> {
    match (scheme, backend) {
        (Scheme::SchnorrAtms, Backend::Bn254) => Ok(&Pair::<SchnorrBn254>(PhantomData)),
        (Scheme::BlsAtms, Backend::Bn254) => Ok(&Pair::<BlsBn254>(PhantomData)),
        (Scheme::Mithril, Backend::Bn254) => Ok(&Pair::<MithrilBn254>(PhantomData)),
        (Scheme::SchnorrAtms, Backend::Cardano) => Ok(&Pair::<SchnorrCardano>(PhantomData)),
        (Scheme::Mithril, Backend::Cardano) => Ok(&Pair::<MithrilCardano>(PhantomData)),
        (Scheme::BlsAtms, Backend::Cardano) => Err(usage(
            "--backend cardano runs --scheme schnorr-atms and mithril (on Jubjub); bls-atms \
             exists on --backend bn254",
        )),
    }
}

/// The pair `--format mithril-stm` names: SNARK-Mithril in mithril-stm's relation on the Cardano
/// backend; any other scheme or backend is refused in one line.
pub fn mithril_stm_driver(scheme: Scheme, backend: Backend) -> Result<&'static dyn Driver> {
    match (scheme, backend) {
        (Scheme::Mithril, Backend::Cardano) => Ok(&Pair::<MithrilStm>(PhantomData)),
        _ => Err(usage(
            "--format mithril-stm: mithril-stm's files prove in its relation on Jubjub: give \
             --scheme mithril --backend cardano",
        )),
    }
}

/// The generic flows over scheme `S`.
pub(crate) struct Pair<S>(pub(crate) PhantomData<S>);

impl<S: CertificateScheme> Driver for Pair<S> {
    fn committee(&self, args: &CommitteeArgs) -> Result<()> {
        S::committee(args)
    }

    fn sign(&self, args: &SignArgs) -> Result<()> {
        S::sign(args)
    }

    fn certify(&self, args: &CertifyArgs) -> Result<()> {
        S::certify(args)
    }

    fn keygen(&self, args: &KeygenArgs) -> Result<()> {
        let start = Instant::now();
        report::<S>("generated", args.json, start, keygen_pair::<S>(args))
    }

    fn prove(&self, args: &ProveArgs) -> Result<()> {
        let start = Instant::now();
        report::<S>("proved", args.json, start, prove_pair::<S>(args))
    }

    fn serve(&self, args: &ServeArgs) -> Result<()> {
        serve_pair::<S>(args)
    }

    fn verify(&self, args: &VerifyArgs) -> Result<()> {
        let start = Instant::now();
        report::<S>("verified", args.json, start, verify_pair::<S>(args))
    }

    fn wrap(&self, args: &WrapArgs) -> Result<()> {
        let v = &args.verify;
        if v.transcript != Transcript::Poseidon {
            return Err(usage(
                "tms wrap: --transcript poseidon (the wrapper replays the verifier of a proof \
                 made with tms prove --transcript poseidon)",
            ));
        }
        // The certificate is verified first, for the statement built from what the caller
        // holds: the wrapper proves only what verifies.
        let l = load_trusted::<S>(v)?;
        let proof = read_bytes(&v.proof)?;
        l.verify_proof(&proof, v)?;
        println!("{}", S::verdict(&l.shape, &l.trusted, v));
        let unwrapped = || {
            usage(format!(
                "tms wrap: {} certificates on this backend are not wrapped (--backend bn254)",
                S::SCHEME.name()
            ))
        };
        let (program, witness) = S::wrap_program(&l.params, &l.vk, &l.trusted.instance, &proof)
            .ok_or_else(unwrapped)??;
        let words = S::wrap_words(&l.trusted.instance).ok_or_else(unwrapped)?;
        super::wrap::run(&args.wrapper, &program, &witness, &words)
    }

    fn demo(&self) -> Result<()> {
        let demo = S::demo_certificate()?;
        for line in &demo.description {
            println!("{line}");
        }
        eprintln!("WARNING: the demo uses INSECURE test parameters (fixed public seed)");
        let mut clock = DemoClock::start();
        let params = S::Backend::test_params(S::k(&demo.shape));
        clock.lap();
        let bar = spinner(S::KEYGEN);
        let keys = S::keygen(&params, &demo.shape, Path::new("(test parameters)"))?;
        // The verifier reads the key the way `tms verify` does.
        let vk_file = S::vk_file(&keys);
        let (shape, vk) = S::read_vk(Path::new("(demo key)"), &vk_file)?;
        clock.lap();
        bar.set_message(S::PROVING);
        let proof =
            S::prove(&params, &keys, &demo.witness, Transcript::Blake2b).map_err(CliError)?;
        clock.lap();
        bar.finish_and_clear();
        // The verifier's statement was built from the committee and message it holds.
        S::verify(
            &params,
            &shape,
            &vk,
            &demo.trusted.instance,
            &proof,
            Transcript::Blake2b,
        )
        .map_err(|e| match e {
            Rejection::Proof => CliError("the demo's proof does not verify".into()),
            Rejection::Other(e) => e,
        })?;
        clock.lap();
        clock.print(&S::describe_circuit(&keys), proof.len());
        S::after_demo(&params, &keys, &demo, &proof)
    }
}

/// What a command found: the lines it prints, and the fields of its `--json` object.
struct Report {
    lines: Vec<String>,
    json: serde_json::Value,
}

/// Says what a command of scheme `S` found: its lines, or with `--json` one object
/// ([`super::print_json`]: `done` true and the report's fields, or false and the error).
fn report<S: CertificateScheme>(
    done: &str,
    json: bool,
    start: Instant,
    outcome: Result<Report>,
) -> Result<()> {
    if json {
        let backend = S::Backend::TAG.unwrap_or("bn254");
        let fields = outcome.as_ref().map(|r| r.json.clone());
        print_json(done, (S::SCHEME.name(), backend), start, fields);
    } else if let Ok(report) = &outcome {
        for line in &report.lines {
            println!("{line}");
        }
    }
    outcome.map(|_| ())
}

/// Runs `f` under a spinner saying `what` it does; how long it took.
fn timed<T>(what: &'static str, f: impl FnOnce() -> Result<T>) -> Result<(T, f64)> {
    let bar = spinner(what);
    let start = Instant::now();
    let out = f()?;
    bar.finish_and_clear();
    Ok((out, start.elapsed().as_secs_f64()))
}

/// `tms keygen` for scheme `S`: the shape from the committee and the parameters, the keys.
fn keygen_pair<S: CertificateScheme>(args: &KeygenArgs) -> Result<Report> {
    let committee = S::load_committee(&args.committee)?;
    let start = Instant::now();
    let params = S::Backend::load_params(&args.params)?;
    let parameters = start.elapsed().as_secs_f64();
    let k = S::Backend::params_k(&params);
    let shape = S::keygen_shape(&committee, &args.options, k)?;
    // Lay the circuit out first so that too-small parameters fail fast, with the k to use.
    if let Some(needed) = S::needed_k(&shape, k)? {
        return Err(at(
            &args.params,
            format!(
                "parameters too small for this circuit: 2^{k} rows, the circuit needs k >= \
                 {needed}"
            ),
        ));
    }
    tracing::info!(scheme = S::SCHEME.name(), ?shape, "keygen");
    let (keys, keygen) = timed(S::KEYGEN, || {
        phase("keygen (total)", || {
            S::keygen(&params, &shape, &args.params)
        })
    })?;
    tracing::info!(seconds = keygen, "keys generated");
    let (pk_bytes, vk_bytes) = (S::pk_file(&keys), S::vk_file(&keys));
    let fp = write_keys(&args.pk, &args.vk, &pk_bytes, &vk_bytes)?;
    let described = S::describe_keys(&keys);
    Ok(Report {
        lines: vec![format!(
            "keys for {described} written to {} and {}; verifying key fingerprint {fp}",
            args.pk.display(),
            args.vk.display(),
        )],
        json: serde_json::json!({
            "keys": described,
            "pk": args.pk,
            "vk": args.vk,
            "fingerprint": fp,
            "seconds": { "parameters": parameters, "keygen": keygen },
        }),
    })
}

/// `tms prove` for scheme `S`: the request checked, the parameters and key read, then the
/// witness of the certificate, the proof and the prover's statement.
fn prove_pair<S: CertificateScheme>(args: &ProveArgs) -> Result<Report> {
    let committee = check_request::<S>(args)?;
    let prover = load_prover::<S>(&args.params, &args.pk)?;
    let mut report = prove_loaded(&prover, args, &committee)?;
    report.json["seconds"]["parameters"] = prover.parameters.into();
    report.json["seconds"]["key"] = prover.key.into();
    Ok(report)
}

/// A prover's parameters and proving key, read once (by `tms prove`, or by `tms serve` for
/// every request).
struct LoadedProver<S: CertificateScheme> {
    params: <S::Backend as ProvingBackend>::Params,
    keys: S::Keys,
    shape: S::Shape,
    /// Seconds the parameters took to read.
    parameters: f64,
    /// Seconds the proving key took to read.
    key: f64,
}

/// Reads the parameters and the proving key, and checks they are of one size.
fn load_prover<S: CertificateScheme>(params_path: &Path, pk: &Path) -> Result<LoadedProver<S>> {
    let start = Instant::now();
    let params = S::Backend::load_params(params_path)?;
    let parameters = start.elapsed().as_secs_f64();
    let (keys, key) = timed("reading the proving key", || S::read_pk(pk))?;
    let shape = S::keys_shape(&keys).clone();
    check_params_k(params_path, S::Backend::params_k(&params), S::k(&shape))?;
    Ok(LoadedProver {
        params,
        keys,
        shape,
        parameters,
        key,
    })
}

/// What a proving request can be refused for before any key is used: the threshold, the
/// transcript and the committee file. Returns the committee.
fn check_request<S: CertificateScheme>(args: &ProveArgs) -> Result<S::Committee> {
    match (S::TAKES_THRESHOLD, args.threshold) {
        (true, None) => return Err(usage("--threshold: give the threshold t to prove")),
        (false, Some(_)) => {
            return Err(usage(
                "--threshold: a Mithril certificate proves the registration's quorum k",
            ))
        }
        _ => {}
    }
    S::Backend::check_transcript(args.out.transcript)?;
    check_outputs(args)?;
    S::load_committee(&args.committee)
}

/// Refuses outputs that would overwrite this proof's inputs (a request of `tms serve` names its
/// files, and a proof written over the proving key would end the next process's service), or
/// each other.
fn check_outputs(args: &ProveArgs) -> Result<()> {
    let same = |a: &Path, b: &Path| {
        a == b
            || matches!(
                (std::fs::canonicalize(a), std::fs::canonicalize(b)),
                (Ok(a), Ok(b)) if a == b
            )
    };
    let (proof, public) = (&args.out.proof, &args.out.public);
    if same(proof, public) {
        return Err(at(
            proof,
            "the proof and the statement file are the same file",
        ));
    }
    for out in [proof, public] {
        for input in [&args.pk, &args.params, &args.committee, &args.certificate] {
            if same(out, input) {
                return Err(at(
                    out,
                    format!(
                        "would overwrite an input of this proof ({})",
                        input.display()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Proves the certificate of `args` with `prover`'s key: the witness, the proof, the files.
fn prove_loaded<S: CertificateScheme>(
    prover: &LoadedProver<S>,
    args: &ProveArgs,
    committee: &S::Committee,
) -> Result<Report> {
    let shape = &prover.shape;
    S::check_committee(&args.committee, committee, shape, "proving key")?;
    let start = Instant::now();
    let (witness, public) = phase("witness (certificate to circuit witness)", || {
        S::witness(shape, committee, &args.certificate, args.threshold)
    })?;
    let witness_seconds = start.elapsed().as_secs_f64();
    let (proof, seconds) = timed(S::PROVING, || {
        phase("prove (total)", || {
            S::prove(&prover.params, &prover.keys, &witness, args.out.transcript)
        })
        .map_err(|e| at(&args.pk, e))
    })?;
    tracing::info!(seconds, bytes = proof.len(), "proved");
    let lines = S::Backend::write_proof(
        &args.out,
        &proof,
        &public,
        &S::public_inputs(&witness),
        seconds,
    )?;
    let calldata = (args.out.transcript == Transcript::Evm).then(|| args.out.calldata_path());
    Ok(Report {
        lines,
        json: serde_json::json!({
            "statement": serde_json::to_value(&public).expect("a statement serializes"),
            "proof": args.out.proof,
            "bytes": proof.len(),
            "transcript": args.out.transcript.name(),
            "public": args.out.public,
            "calldata": calldata,
            "seconds": {
                "witness": witness_seconds,
                "proof": seconds,
            },
        }),
    })
}

/// One request of `tms serve`: what `tms prove` takes besides the parameters and the key.
/// Paths are the server's (relative ones from its working directory).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ProveRequest {
    committee: PathBuf,
    certificate: PathBuf,
    #[serde(default)]
    threshold: Option<u64>,
    proof: PathBuf,
    public: PathBuf,
    /// `blake2b` (the default), `evm` or `poseidon`, as `--transcript`.
    #[serde(default)]
    transcript: Option<String>,
}

impl ProveRequest {
    /// The request as `tms prove`'s arguments under the server's parameters and key.
    fn args(line: &str, serve: &ServeArgs) -> Result<ProveArgs> {
        let r: ProveRequest = serde_json::from_str(line).map_err(|e| {
            usage(format!(
                "not a request ({e}); one JSON object per line: committee, certificate, \
                 [threshold,] proof, public[, transcript]"
            ))
        })?;
        let transcript = match r.transcript.as_deref() {
            None => TranscriptName::default(),
            Some(name) => TranscriptName::from_str(name, true)
                .map_err(|_| usage(format!("transcript {name:?}: blake2b, evm or poseidon")))?,
        };
        Ok(ProveArgs {
            committee: r.committee,
            certificate: r.certificate,
            threshold: r.threshold,
            params: serve.params.clone(),
            pk: serve.pk.clone(),
            out: ProofOutput {
                proof: r.proof,
                public: r.public,
                transcript: transcript.transcript(),
            },
            json: true,
        })
    }
}

/// `tms serve` for scheme `S`: the parameters and the key read once, then every request line of
/// stdin proved and answered by one JSON line on stdout (`tms prove --json`'s object, with the
/// request's line number), a refused request answered with its error and the next one served.
fn serve_pair<S: CertificateScheme>(args: &ServeArgs) -> Result<()> {
    use std::io::{BufRead, Write};
    let prover = load_prover::<S>(&args.params, &args.pk)?;
    let backend = S::Backend::TAG.unwrap_or("bn254");
    eprintln!(
        "tms serve: {} proving key read in {:.1} s (parameters {:.1} s); one JSON request per \
         line on stdin, one JSON answer per line on stdout",
        S::SCHEME.name(),
        prover.key,
        prover.parameters
    );
    let (mut served, mut refused) = (0usize, 0usize);
    // Lines as bytes: a line that is not UTF-8 is one refused request, not the end of service.
    for (index, line) in std::io::stdin().lock().split(b'\n').enumerate() {
        let mut line = line.map_err(|e| CliError(format!("stdin: {e}")))?;
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let start = Instant::now();
        let line = String::from_utf8(line).map_err(|_| usage("not a request: not UTF-8"));
        let outcome = line
            .and_then(|line| ProveRequest::args(&line, args))
            .and_then(|request| {
                let committee = check_request::<S>(&request)?;
                prove_loaded(&prover, &request, &committee)
            });
        served += 1;
        let request = index + 1;
        let outcome = outcome.map_err(|e| CliError(format!("request {request}: {}", e.0)));
        let fields = match &outcome {
            Ok(report) => {
                let mut json = report.json.clone();
                json["request"] = request.into();
                Ok(json)
            }
            Err(e) => {
                refused += 1;
                eprintln!("{}", e.0);
                Err(e)
            }
        };
        print_json("proved", (S::SCHEME.name(), backend), start, fields);
        std::io::stdout()
            .flush()
            .map_err(|e| CliError(format!("stdout: {e}")))?;
    }
    eprintln!("tms serve: {served} requests, {refused} refused");
    match refused {
        0 => Ok(()),
        _ => Err(CliError(format!("{refused} of {served} requests refused"))),
    }
}

/// What a verifier holds once the key is trusted and the statement built: the parameters, the
/// key and its shape, the trusted statement, the key file (and the seconds each took).
struct Loaded<S: CertificateScheme> {
    params: <S::Backend as ProvingBackend>::Params,
    shape: S::Shape,
    vk: <S::Backend as ProvingBackend>::Vk,
    trusted: crate::interface::Trusted<S>,
    vk_file: Vec<u8>,
    parameters: f64,
    key: f64,
}

impl<S: CertificateScheme> Loaded<S> {
    /// Verifies `proof` for the trusted statement under the trusted key; a rejected proof is
    /// the backend's one-line refusal.
    fn verify_proof(&self, proof: &[u8], args: &VerifyArgs) -> Result<()> {
        S::verify(
            &self.params,
            &self.shape,
            &self.vk,
            &self.trusted.instance,
            proof,
            args.transcript,
        )
        .map_err(|e| match e {
            Rejection::Proof => S::Backend::rejected(args),
            Rejection::Other(e) => e,
        })
    }
}

/// `tms verify` for scheme `S`: the statement from what the verifier holds, the key pinned or
/// regenerated, then the proof (or, with `--groth16-key`, its Groth16 wrapper's proof).
fn verify_pair<S: CertificateScheme>(args: &VerifyArgs) -> Result<Report> {
    let l = load_trusted::<S>(args)?;
    let start = Instant::now();
    let (verdict, key) = if let Some(g) = &args.groth16 {
        let words = S::wrap_words(&l.trusted.instance).ok_or_else(|| {
            usage("--groth16-key: only BN254 certificates are wrapped (--backend bn254)")
        })?;
        let key = super::wrap::verify_wrapped(g, &args.proof, &words)?;
        (
            format!(
                "{} (through its Groth16 wrapper)",
                S::verdict(&l.shape, &l.trusted, args)
            ),
            format!("{}; {key}", args.key_trust().describe(&l.vk_file)),
        )
    } else {
        let proof = read_bytes(&args.proof)?;
        tracing::info!(scheme = S::SCHEME.name(), shape = ?l.shape, "verifying");
        l.verify_proof(&proof, args)?;
        (
            S::verdict(&l.shape, &l.trusted, args),
            args.key_trust().describe(&l.vk_file),
        )
    };
    let proof_seconds = start.elapsed().as_secs_f64();
    Ok(Report {
        lines: vec![verdict.clone(), format!("  {key}")],
        json: serde_json::json!({
            "verdict": verdict,
            "statement": serde_json::to_value(&l.trusted.public).expect("a statement serializes"),
            "key": key,
            "seconds": {
                "parameters": l.parameters,
                "key": l.key,
                "proof": proof_seconds,
            },
        }),
    })
}

/// The parameters, the key (pinned or regenerated) and the statement built from what the
/// verifier holds: everything of `tms verify` but the proof.
fn load_trusted<S: CertificateScheme>(args: &VerifyArgs) -> Result<Loaded<S>> {
    S::Backend::check_transcript(args.transcript)?;
    let start = Instant::now();
    let params = S::Backend::load_params(&args.params)?;
    let parameters = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let vk_file = args.vk_file()?;
    let (shape, vk) = S::read_vk(&args.vk, &vk_file)?;
    S::Backend::check_verifier_params(&args.params, &params, S::k(&shape))?;
    let public: Option<PublicFile<S::ShapeFile>> = args
        .public
        .as_deref()
        .map(|p| read_json_on(p, S::SCHEME, S::Backend::TAG))
        .transpose()?;
    let trusted = S::trusted(&shape, args, public.as_ref())?;
    check_statement(args, public.as_ref(), &trusted.public)?;
    args.key_trust()
        .check_regenerated(&vk_file, "its shape", || {
            S::regenerate_vk(&params, &shape, &args.vk)
        })?;
    let key = start.elapsed().as_secs_f64();
    Ok(Loaded {
        params,
        shape,
        vk,
        trusted,
        vk_file,
        parameters,
        key,
    })
}

/// Writes both key files and returns the verifying key file's fingerprint.
fn write_keys(pk: &Path, vk: &Path, pk_bytes: &[u8], vk_bytes: &[u8]) -> Result<String> {
    write_atomic(pk, pk_bytes)?;
    write_atomic(vk, vk_bytes)?;
    Ok(fingerprint(vk_bytes))
}

/// Times the four steps of a demo and prints the summary table.
struct DemoClock {
    times: Vec<std::time::Duration>,
    start: std::time::Instant,
}

impl DemoClock {
    /// Starts the first step.
    fn start() -> Self {
        Self {
            times: vec![],
            start: std::time::Instant::now(),
        }
    }

    /// Ends a step and starts the next.
    fn lap(&mut self) {
        self.times.push(self.start.elapsed());
        self.start = std::time::Instant::now();
    }

    /// Prints the table: the circuit, parameters, keygen, prove and verify times, proof size.
    fn print(&self, circuit: &str, proof_bytes: usize) {
        let secs = |i: usize| self.times.get(i).map_or(0.0, |d| d.as_secs_f64());
        println!();
        println!("| what | value |");
        println!("|---|---|");
        println!("| circuit | {circuit} |");
        println!("| parameters (insecure, test) | {:.1} s |", secs(0));
        println!("| keygen | {:.1} s |", secs(1));
        println!("| prove | {:.1} s |", secs(2));
        println!("| verify | {:.1} ms |", secs(3) * 1e3);
        println!("| proof | {proof_bytes} bytes |");
        println!("| verified | true |");
    }
}
