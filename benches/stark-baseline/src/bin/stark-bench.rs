//! `stark-bench --n N --t T [--seed S] [--reps R]`: generates N Lamport+ keys, lets the first t
//! sign one message, proves and verifies the aggregate, and prints one JSON object per
//! repetition (prove wall and CPU seconds, verify ms, proof bytes, security, trace shape).

use std::process::ExitCode;
use std::time::Instant;

use stark_baseline::{
    air, check_parameters, lamport, merkle::KeyTree, proof_options, prove, security, verify, Error,
};

struct Args {
    n: usize,
    t: usize,
    seed: u64,
    reps: usize,
}

const USAGE: &str = "usage: stark-bench --n N --t T [--seed S] [--reps R]";

fn parse_args() -> Result<Args, Error> {
    let mut args = Args {
        n: 0,
        t: 0,
        seed: 1,
        reps: 1,
    };
    let (mut have_n, mut have_t) = (false, false);
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--help" || flag == "-h" {
            return Err(Error::InvalidArgument(USAGE.into()));
        }
        let value = it
            .next()
            .ok_or_else(|| Error::InvalidArgument(format!("{flag} needs a value; {USAGE}")))?;
        let parsed: u64 = value
            .parse()
            .map_err(|_| Error::InvalidArgument(format!("{flag} {value}: not a number")))?;
        match flag.as_str() {
            "--n" => (args.n, have_n) = (parsed as usize, true),
            "--t" => (args.t, have_t) = (parsed as usize, true),
            "--seed" => args.seed = parsed,
            "--reps" => args.reps = parsed.max(1) as usize,
            _ => {
                return Err(Error::InvalidArgument(format!(
                    "unknown flag {flag}; {USAGE}"
                )))
            }
        }
    }
    if !(have_n && have_t) {
        return Err(Error::InvalidArgument(format!(
            "--n and --t are required; {USAGE}"
        )));
    }
    check_parameters(args.n, args.t)?;
    Ok(args)
}

/// User + system CPU seconds of this process so far.
fn cpu_seconds() -> f64 {
    // SAFETY: getrusage only writes into the struct we pass.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    if rc != 0 {
        return f64::NAN;
    }
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

fn threads() -> usize {
    #[cfg(feature = "concurrent")]
    {
        rayon::current_num_threads()
    }
    #[cfg(not(feature = "concurrent"))]
    {
        1
    }
}

fn run(args: &Args) -> Result<(), Error> {
    let t0 = Instant::now();
    let keys = lamport::generate_keys(args.n, args.seed);
    let pks: Vec<_> = keys.iter().map(|k| k.public_key()).collect();
    let tree = KeyTree::new(&pks)?;
    let msg = lamport::Message::from_bytes(b"stark-bench message");
    let sigs: Vec<_> = (0..args.t).map(|i| (i, keys[i].sign(&msg))).collect();
    let setup_s = t0.elapsed().as_secs_f64();

    for rep in 0..args.reps {
        let (wall0, cpu0) = (Instant::now(), cpu_seconds());
        let (proof, inputs) = prove(&tree, &msg, &sigs)?;
        let (prove_wall, prove_cpu) = (wall0.elapsed().as_secs_f64(), cpu_seconds() - cpu0);

        let bytes = proof.to_bytes();
        let sec = security(&proof);
        let parsed = winterfell::Proof::from_bytes(&bytes)
            .map_err(|e| Error::Verification(format!("proof does not deserialize: {e}")))?;
        let v0 = Instant::now();
        verify(parsed, &inputs)?;
        let verify_ms = v0.elapsed().as_secs_f64() * 1e3;

        let o = proof_options();
        let json = serde_json::json!({
            "n": args.n,
            "t": args.t,
            "rep": rep,
            "threads": threads(),
            "concurrent": cfg!(feature = "concurrent"),
            "trace_width": air::TRACE_WIDTH,
            "trace_length": air::trace_length(args.n),
            "keygen_sign_s": setup_s,
            "prove_wall_s": prove_wall,
            "prove_cpu_s": prove_cpu,
            "verify_ms": verify_ms,
            "proof_bytes": bytes.len(),
            "conjectured_bits": sec.conjectured,
            "proven_list_decoding_bits": sec.proven_list_decoding,
            "proven_unique_decoding_bits": sec.proven_unique_decoding,
            "options": {
                "queries": o.num_queries(),
                "blowup": o.blowup_factor(),
                "grinding": o.grinding_factor(),
                "field_extension": o.field_extension().degree(),
                "fri_folding": stark_baseline::FRI_FOLDING,
                "fri_remainder_max_degree": stark_baseline::FRI_REMAINDER_MAX_DEGREE,
                "hash": "blake3-256",
            },
        });
        println!("{json}");
    }
    Ok(())
}

fn main() -> ExitCode {
    match parse_args().and_then(|a| run(&a)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("stark-bench: {e}");
            ExitCode::FAILURE
        }
    }
}
