//! The checks and verdict wording that every scheme's `verify` shares, whatever its backend:
//! the prover's statement against the trusted one, the parameters' and the committee's size
//! against the key's, how a message is described, and how a rejected proof is reported.

use std::path::Path;

use serde::Serialize;
use tms_gadgets::{proving::Transcript, Fr};

use crate::{
    formats::{bytes_to_hex, fr_to_hex, PublicFile},
    interface::VerifyArgs,
    io::{at, CliError, Result},
};

/// Refuses a prover's statement that differs from the one the verifier built from what it
/// trusts, naming the first field that differs.
pub fn check_statement<S: PartialEq + Serialize>(
    args: &VerifyArgs,
    public: Option<&PublicFile<S>>,
    trusted: &PublicFile<S>,
) -> Result<()> {
    let (Some(public), Some(path)) = (public, args.public.as_deref()) else {
        return Ok(());
    };
    if public.shape != trusted.shape {
        return Err(at(
            path,
            format!(
                "circuit shape {} differs from the verifying key's {}",
                serde_json::to_string(&public.shape).expect("serializable"),
                serde_json::to_string(&trusted.shape).expect("serializable")
            ),
        ));
    }
    let fields = [
        ("commitment", &public.commitment, &trusted.commitment),
        ("message", &public.message, &trusted.message),
    ];
    for (name, theirs, ours) in fields {
        if !theirs.eq_ignore_ascii_case(ours) {
            return Err(at(
                path,
                format!("{name} {theirs} differs from the trusted {name} {ours}"),
            ));
        }
    }
    Ok(())
}

/// A one-line description of a message for the verdict: its bytes (shortened) and `m`.
pub fn describe_message(bytes: &[u8], m: &Fr) -> String {
    describe_message_bytes(bytes, &fr_to_hex(m))
}

/// [`describe_message`] with `m` already in hex (for fields other than BN254's).
pub fn describe_message_bytes(bytes: &[u8], m: &str) -> String {
    let hex = bytes_to_hex(bytes);
    let shown = if hex.len() > 42 {
        format!("{}..({} bytes)", &hex[..42], bytes.len())
    } else {
        hex
    };
    format!("message {shown} (m = {m})")
}

/// Refuses parameters of another size than the proving key's.
pub fn check_params_k(params_path: &Path, params_k: u32, key_k: u32) -> Result<()> {
    if params_k != key_k {
        return Err(at(
            params_path,
            format!("parameters are for k = {params_k}, the proving key for k = {key_k}"),
        ));
    }
    Ok(())
}

/// Refuses a committee of another size than the key's.
pub fn check_members(path: &Path, members: usize, key_n: usize, key: &str) -> Result<()> {
    if members != key_n {
        return Err(at(
            path,
            format!("has {members} members, the {key} is for {key_n}"),
        ));
    }
    Ok(())
}

/// The error for a proof that does not verify, with a hint about the transcript.
pub fn proof_rejected(args: &VerifyArgs) -> CliError {
    let other = match args.transcript {
        Transcript::Blake2b => "evm",
        Transcript::Evm | Transcript::Poseidon => "blake2b",
    };
    at(
        &args.proof,
        format!(
            "the proof does not verify for the trusted statement in the {} transcript (a proof \
             made with `tms prove --transcript {other}` needs `--transcript {other}`)",
            args.transcript.name()
        ),
    )
}
