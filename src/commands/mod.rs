//! The commands, written once over the tool's one interface ([`crate::interface`]): `drive`
//! holds keygen, prove, verify and demo for any (scheme, backend) pair and [`driver`] picks the
//! pair a command names; `tms export-verifier` ([`export`]), aggregation, chains and chunks
//! (BN254), the Groth16 wrapper ([`wrap`]: `tms wrap`, `tms verify --groth16-key`, `tms
//! export-plutus --groth16`), and `tms hash`. Each command returns a one-line error naming the file it concerns.

pub mod aggregate;
pub mod chain;
pub mod chunk;
mod drive;
pub mod export;
pub mod step_keys;
pub mod stm_chain;
pub mod wrap;

pub use drive::{driver, mithril_stm_driver};
pub use export::export_verifier;

use tms_gadgets::{
    hash::{rescue::rescue_prime_hash, NativeHash, Poseidon, RescuePrime},
    Fr,
};

use std::time::Instant;

use crate::{
    formats::{fr_from_str, fr_to_hex},
    io::{usage, CliError, Result},
    options::{HashMode, HashName},
};

/// `--json`, for scripts: one JSON object on stdout.
#[derive(clap::Args, Debug)]
pub struct JsonArgs {
    /// Print what a script needs as one JSON object on stdout: the verdict or what was made,
    /// the statement, the timings (refused: `false` and the reason, exit code 1).
    #[arg(long)]
    pub json: bool,
}

/// What a measuring command prints with `--json` for scripts: one object on stdout, its `done`
/// member (`"verified"`, `"proved"`, `"generated"`, `"extended"`) true with the command's
/// `fields`, or false with the `"error"` (which also goes to stderr; the exit code is then 1),
/// and always the scheme, the backend and `seconds.total` since `start`.
pub(crate) fn print_json(
    done: &str,
    (scheme, backend): (&str, &str),
    start: Instant,
    fields: std::result::Result<serde_json::Value, &CliError>,
) {
    let ok = fields.is_ok();
    let mut object = fields.unwrap_or_else(|e| serde_json::json!({ "error": e.0 }));
    object[done] = ok.into();
    object["scheme"] = scheme.into();
    object["backend"] = backend.into();
    object["seconds"]["total"] = start.elapsed().as_secs_f64().into();
    println!("{object}");
}

/// Says a measuring command's outcome: its lines, or with `--json` one object ([`print_json`]).
pub(crate) fn say(
    done: &str,
    pair: (&str, &str),
    json: bool,
    start: Instant,
    outcome: &Result<(Vec<String>, serde_json::Value)>,
) {
    match (outcome, json) {
        (_, true) => print_json(done, pair, start, outcome.as_ref().map(|(_, j)| j.clone())),
        (Ok((lines, _)), false) => lines.iter().for_each(|line| println!("{line}")),
        (Err(_), false) => {}
    }
}

/// `tms hash`.
pub fn hash(name: HashName, mode: HashMode, inputs: &[String]) -> Result<()> {
    let xs = inputs
        .iter()
        .enumerate()
        .map(|(i, s)| fr_from_str(s, &format!("input {i}")))
        .collect::<std::result::Result<Vec<Fr>, _>>()
        .map_err(CliError)?;
    let out = match (name, mode) {
        (_, HashMode::Node) if xs.len() != 2 => {
            return Err(usage("node mode hashes exactly two elements"))
        }
        (HashName::Poseidon, HashMode::Node) => Poseidon.hash_node(xs[0], xs[1]),
        (HashName::RescuePrime, HashMode::Node) => RescuePrime.hash_node(xs[0], xs[1]),
        (HashName::Poseidon, HashMode::Leaf) => Poseidon.hash_leaf(&xs).map_err(usage)?,
        (HashName::RescuePrime, HashMode::Leaf) => RescuePrime.hash_leaf(&xs).map_err(usage)?,
        (HashName::RescuePrime, HashMode::Sponge) => rescue_prime_hash(&xs)[0],
        (HashName::Poseidon, HashMode::Sponge) => {
            return Err(usage(
                "sponge mode is Rescue-Prime's padded hash; use --hash rescue-prime",
            ))
        }
    };
    println!("{}", fr_to_hex(&out));
    Ok(())
}
