//! Keys made once and kept: `tms chain extend`'s step keys, beside the chain (`--step-cache
//! DIR`, default the directory of `--proof`), as `DIR/chain-step.keys`; and `tms aggregate
//! prove`'s aggregation keys where `--key-cache FILE` says (the final wrapper's keygen, once).
//!
//! The files and their checks are `tms_aggregation::key_cache`'s (`step_cache` for the step
//! keys): a file for another certificate key, another statement or other parameters, or one
//! whose bytes changed, is refused with one line naming it, and replaced only with
//! `--regenerate-step-keys` / `--regenerate-keys` (or when absent). The keys are the prover's
//! convenience only: what a command writes is the key it proved under (`tms aggregate prove`
//! verifies each proof before writing it), and a verifier still pins or regenerates its own.

use std::{
    fs::File,
    io::BufWriter,
    path::{Path, PathBuf},
    time::Instant,
};

use halo2_base::halo2_proofs::{
    halo2curves::bn256::{Bn256, G1Affine},
    plonk::VerifyingKey,
    poly::{commitment::Params, kzg::commitment::ParamsKZG},
};
use tms_aggregation::{
    chain_step::{step_certificate_key, step_keygen, StepKeys},
    key_cache::{load_aggregation_keys, write_aggregation_keys, AggregationKeysFor, KeyCacheError},
    step_cache::{load_step_keys, write_step_keys},
    AggregationKeys,
};

use crate::io::{at, write_atomic_with, CliError, Result};

/// The cache file's name in its directory.
pub const STEP_KEYS_FILE: &str = "chain-step.keys";

/// Where the step keys are kept and whether to replace them.
#[derive(clap::Args, Debug)]
pub struct StepKeyCache {
    /// Where the step keys are kept between epochs (`DIR/chain-step.keys`, several GiB):
    /// made on the first call, read back and checked on the next ones. Default: the
    /// directory of --proof.
    #[arg(long, value_name = "DIR")]
    pub step_cache: Option<PathBuf>,
    /// Make the step keys again and replace the cached ones (which are otherwise refused
    /// when they are for another certificate key or other parameters, or altered).
    #[arg(long)]
    pub regenerate_step_keys: bool,
}

impl StepKeyCache {
    /// The cache file for a chain proof written to `proof`.
    pub fn path(&self, proof: &Path) -> PathBuf {
        let dir = self.step_cache.as_deref().unwrap_or_else(|| {
            proof
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."))
        });
        dir.join(STEP_KEYS_FILE)
    }

    /// The step keys for certificates under `certificate_vk` at `chain_params`: read back from
    /// the cache when it holds them (checked), else made and stored. Returns the keys and a
    /// line saying which.
    pub fn step_keys(
        &self,
        proof: &Path,
        chain_params: &ParamsKZG<Bn256>,
        (params, certificate_vk): (&ParamsKZG<Bn256>, &VerifyingKey<G1Affine>),
        on_keygen: impl FnOnce(),
    ) -> Result<(StepKeys, String)> {
        let kept = KeptKeys {
            path: &self.path(proof),
            regenerate: self.regenerate_step_keys,
            regenerate_option: "--regenerate-step-keys",
            elsewhere_option: "--step-cache DIR",
            file_name: "the step key cache",
            keys_name: "step keys",
            next_uses: "epochs",
        };
        kept.load_or_make(
            |path| {
                load_step_keys(
                    path,
                    chain_params,
                    step_certificate_key(params, certificate_vk),
                )
            },
            || {
                on_keygen();
                step_keygen(chain_params, chain_params.k(), (params, certificate_vk))
                    .map_err(|e| CliError(e.to_string()))
            },
            |file, keys| write_step_keys(file, chain_params, keys),
        )
    }
}

/// A key file kept between calls, and what the command calls it.
struct KeptKeys<'a> {
    path: &'a Path,
    /// Replace the kept keys whatever they are.
    regenerate: bool,
    /// The command's option that replaces the file.
    regenerate_option: &'static str,
    /// The command's option that keeps the keys elsewhere.
    elsewhere_option: &'static str,
    /// The file in a message ("not a directory (for ...)").
    file_name: &'static str,
    /// What the keys are ("step keys").
    keys_name: &'static str,
    /// What they serve next ("for the next ...").
    next_uses: &'static str,
}

impl KeptKeys<'_> {
    /// The keys read back by `load` (checked) when the file is there and not to be replaced,
    /// else made by `make` and written by `write`; with a line saying which.
    fn load_or_make<K>(
        &self,
        load: impl FnOnce(&Path) -> std::result::Result<K, KeyCacheError>,
        make: impl FnOnce() -> Result<K>,
        write: impl FnOnce(&mut BufWriter<File>, &K) -> std::result::Result<(), KeyCacheError>,
    ) -> Result<(K, String)> {
        let (path, what, next) = (self.path, self.keys_name, self.next_uses);
        // Where the keys will go is checked before minutes of keygen are spent on them.
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            if !dir.is_dir() {
                return Err(at(dir, format!("not a directory (for {})", self.file_name)));
            }
        }
        let start = Instant::now();
        if path.exists() && !self.regenerate {
            let keys = load(path)
                .map_err(|e| refused(path, e, self.regenerate_option, self.elsewhere_option))?;
            let said = format!(
                "{what} reused from {} (checked, {:.0} s)",
                path.display(),
                start.elapsed().as_secs_f64()
            );
            return Ok((keys, said));
        }
        let keys = make()?;
        let made = start.elapsed().as_secs_f64();
        let bytes = write_atomic_with(path, |file| write(file, &keys).map_err(|e| at(path, e)))?;
        let said = format!(
            "{what} made ({made:.0} s) and kept in {} ({} MiB) for the next {next}",
            path.display(),
            bytes >> 20
        );
        Ok((keys, said))
    }
}

/// A refused cache file: what is wrong, and what to do (`regenerate` and `elsewhere` name the
/// command's own options).
fn refused(path: &Path, e: KeyCacheError, regenerate: &str, elsewhere: &str) -> CliError {
    match e {
        KeyCacheError::Io(_) => at(path, e),
        _ => at(
            path,
            format!(
                "{e}; remove it, pass {regenerate} to replace it, or {elsewhere} to keep these \
                 keys elsewhere"
            ),
        ),
    }
}

/// Where `tms aggregate prove` keeps its aggregation keys, if anywhere.
#[derive(clap::Args, Debug)]
pub struct AggregationKeyCache {
    /// Keep the aggregation keys in FILE (2.6 GiB at the final wrapper's k = 22): made and
    /// written on the first call, read back and checked on the next ones (a file for other
    /// inner keys, another statement or other parameters is refused). Without it, every call
    /// makes them.
    #[arg(long, value_name = "FILE")]
    pub key_cache: Option<PathBuf>,
    /// Make the aggregation keys again and replace those in --key-cache.
    #[arg(long, requires = "key_cache")]
    pub regenerate_keys: bool,
}

impl AggregationKeyCache {
    /// The aggregation keys for `wanted` at `params`: read back from the cache when it holds
    /// them (checked), else made by `keygen` (and stored when there is a cache). Returns the
    /// keys and, with a cache, a line saying which.
    pub fn keys(
        &self,
        params: &ParamsKZG<Bn256>,
        wanted: &AggregationKeysFor,
        keygen: impl FnOnce() -> Result<AggregationKeys>,
    ) -> Result<(AggregationKeys, Option<String>)> {
        let Some(path) = &self.key_cache else {
            return Ok((keygen()?, None));
        };
        let kept = KeptKeys {
            path,
            regenerate: self.regenerate_keys,
            regenerate_option: "--regenerate-keys",
            elsewhere_option: "another --key-cache FILE",
            file_name: "--key-cache",
            keys_name: "aggregation keys",
            next_uses: "proofs",
        };
        let (keys, said) = kept.load_or_make(
            |path| load_aggregation_keys(path, params, wanted),
            keygen,
            |file, keys| write_aggregation_keys(file, params, keys, wanted),
        )?;
        Ok((keys, Some(said)))
    }
}
