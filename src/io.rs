//! Reading and writing the tool's files: one-line errors naming the file, atomic writes, the
//! parameters' SHA-256 record, progress spinners, and message bytes from the command line.

use std::{
    fmt, fs,
    io::{IsTerminal, Write},
    path::{Path, PathBuf},
    sync::Mutex,
    time::Duration,
};

use halo2_base::halo2_proofs::{
    halo2curves::bn256::Bn256,
    poly::{commitment::Params, kzg::commitment::ParamsKZG},
};
use indicatif::{ProgressBar, ProgressFinish, ProgressStyle, WeakProgressBar};
use serde::{de::DeserializeOwned, Serialize};
use tms_gadgets::proving::params::{is_insecure_test_params, read_params, sha256_hex};

use rand::{rngs::OsRng, SeedableRng};
use rand_chacha::ChaCha20Rng;

use crate::{
    formats::{bytes_from_hex, Header, MemberFile},
    options::Scheme,
};

/// A one-line, user-facing error.
#[derive(Debug)]
pub struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The tool's result type.
pub type Result<T> = std::result::Result<T, CliError>;

/// An error about `path`.
pub fn at(path: &Path, msg: impl fmt::Display) -> CliError {
    CliError(format!("{}: {msg}", path.display()))
}

/// An error about the command line.
pub fn usage(msg: impl fmt::Display) -> CliError {
    CliError(msg.to_string())
}

/// The largest message `--message` or `--message-file` accepts.
pub const MAX_MESSAGE_BYTES: usize = 16 << 20;

/// The largest file the tool reads (parameters for k = 24 are about 2 GiB).
pub const MAX_FILE_BYTES: u64 = 8 << 30;
/// The most members a committee file may list.
pub const MAX_MEMBERS: usize = 1 << 20;
/// The largest JSON file the tool reads.
pub const MAX_JSON_BYTES: usize = 256 << 20;

#[cfg(any(test, feature = "fuzzing"))]
thread_local! {
    static VIRTUAL_FILES: std::cell::RefCell<std::collections::HashMap<PathBuf, Vec<u8>>> =
        Default::default();
}

/// Runs `f` with `path` reading as `bytes` (fuzzing and property tests drive the loaders through
/// their real code paths without touching the disk).
#[cfg(any(test, feature = "fuzzing"))]
pub fn with_virtual_file<T>(path: &Path, bytes: &[u8], f: impl FnOnce() -> T) -> T {
    VIRTUAL_FILES.with(|v| v.borrow_mut().insert(path.to_owned(), bytes.to_vec()));
    let out = f();
    VIRTUAL_FILES.with(|v| v.borrow_mut().remove(path));
    out
}

/// Reads a whole file (refusing one above [`MAX_FILE_BYTES`]).
pub fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    #[cfg(any(test, feature = "fuzzing"))]
    if let Some(bytes) = VIRTUAL_FILES.with(|v| v.borrow().get(path).cloned()) {
        return Ok(bytes);
    }
    let len = fs::metadata(path)
        .map_err(|e| at(path, format!("cannot read: {e}")))?
        .len();
    if len > MAX_FILE_BYTES {
        return Err(at(path, format!("{len} bytes, more than {MAX_FILE_BYTES}")));
    }
    let bytes = fs::read(path).map_err(|e| at(path, format!("cannot read: {e}")))?;
    tracing::debug!(file = %path.display(), bytes = bytes.len(), "read");
    Ok(bytes)
}

/// Reads a JSON file of `scheme` (its `version` and `scheme` fields checked first).
pub fn read_json<T: DeserializeOwned>(path: &Path, scheme: Scheme) -> Result<T> {
    read_json_on(path, scheme, None)
}

/// Reads a JSON file of `scheme` on `backend` (`None`: BN254), its header checked first.
pub fn read_json_on<T: DeserializeOwned>(
    path: &Path,
    scheme: Scheme,
    backend: Option<&str>,
) -> Result<T> {
    let bytes = read_bytes(path)?;
    if bytes.len() > MAX_JSON_BYTES {
        return Err(at(
            path,
            format!("more than {MAX_JSON_BYTES} bytes of JSON"),
        ));
    }
    let header: Header =
        serde_json::from_slice(&bytes).map_err(|e| at(path, format!("malformed JSON: {e}")))?;
    header.check_on(scheme, backend).map_err(|e| at(path, e))?;
    serde_json::from_slice(&bytes).map_err(|e| at(path, format!("malformed JSON: {e}")))
}

/// Writes `bytes` to a temporary file beside `path`, then renames it: no partial output.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, |file| {
        file.write_all(bytes)
            .map_err(|e| at(path, format!("cannot write: {e}")))
    })
    .map(|_| ())
}

/// [`write_atomic`] for output written in pieces (gigabytes of keys): `write` fills the
/// temporary file, which is synced and renamed to `path` only when it succeeds. Returns the
/// file's size in bytes.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<fs::File>) -> Result<()>,
) -> Result<u64> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| at(path, "not a file name"))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let cannot = |e: std::io::Error| at(path, format!("cannot write: {e}"));
    let written = (|| {
        let mut file = std::io::BufWriter::new(fs::File::create(&tmp).map_err(cannot)?);
        write(&mut file)?;
        let file = file.into_inner().map_err(|e| cannot(e.into_error()))?;
        file.sync_all().map_err(cannot)?;
        let len = file.metadata().map_err(cannot)?.len();
        fs::rename(&tmp, path).map_err(cannot)?;
        Ok(len)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    written
}

/// Writes `value` as pretty JSON, atomically.
pub fn write_json(path: &Path, value: &impl Serialize) -> Result<()> {
    let mut text = serde_json::to_string_pretty(value).expect("serializable");
    text.push('\n');
    write_atomic(path, text.as_bytes())
}

/// Set while [`catch_quietly`] runs: the panic hook of `tms` prints nothing then.
static QUIET_PANICS: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a panic now is one [`catch_quietly`] reports itself (the panic hook asks).
pub fn panics_are_quiet() -> bool {
    QUIET_PANICS.load(std::sync::atomic::Ordering::SeqCst)
}

/// Runs `f`, turning a panic into its message, unprinted: for library code that panics on
/// inputs whose fault the caller names itself (halo2 on a kept key for other proofs).
pub fn catch_quietly<T>(f: impl FnOnce() -> T) -> std::result::Result<T, String> {
    use std::sync::atomic::Ordering::SeqCst;
    QUIET_PANICS.store(true, SeqCst);
    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    QUIET_PANICS.store(false, SeqCst);
    out.map_err(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "a panic".into())
    })
}

/// The spinner drawn now, if any: a step started under it (reading parameters inside a
/// regeneration) stays silent, so that two spinners never fight over the terminal's last line.
static DRAWN: Mutex<Option<WeakProgressBar>> = Mutex::new(None);

/// A spinner on stderr for a long step, showing the elapsed time; cleared when the step ends
/// (dropped or finished). Nothing is drawn when stderr is not a terminal (a pipe, a file, CI),
/// nor under another spinner still drawn.
pub fn spinner(message: &'static str) -> ProgressBar {
    spinner_on(std::io::stderr().is_terminal(), message)
}

/// [`spinner`], drawn only on a `terminal`.
fn spinner_on(terminal: bool, message: &'static str) -> ProgressBar {
    if !terminal {
        return ProgressBar::hidden();
    }
    let mut drawn = DRAWN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(outer) = drawn.as_ref().and_then(WeakProgressBar::upgrade) {
        if !outer.is_finished() {
            return ProgressBar::hidden();
        }
    }
    let bar = ProgressBar::new_spinner().with_finish(ProgressFinish::AndClear);
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} {elapsed}").expect("static template"),
    );
    bar.set_message(message);
    bar.enable_steady_tick(Duration::from_millis(200));
    *drawn = Some(bar.downgrade());
    bar
}

/// Moves a long command's spinner to its next stage, and logs the stage at `RUST_LOG=tms=info`
/// (the spinner is silent off a terminal; the log is not, when asked for).
pub fn stage(bar: &ProgressBar, message: String) {
    tracing::info!("{message}");
    bar.set_message(message);
}

/// `<path>.sha256`, the record `tms setup` writes beside parameters.
pub fn sha_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".sha256");
    PathBuf::from(name)
}

/// The warning printed when making or using parameters from the fixed public seed.
pub const INSECURE_WARNING: &str =
    "WARNING: these parameters come from a fixed public seed and are INSECURE (tests and demos only)";

/// Reads a parameters file (of either backend), checked against the `<file>.sha256` record
/// when there is one.
pub fn read_params_bytes(path: &Path) -> Result<Vec<u8>> {
    read_recorded_params_bytes(path).map(|(bytes, _)| bytes)
}

/// [`read_params_bytes`], and whether the file had a record (then its bytes are the ones `tms
/// setup` wrote, having made or checked them).
pub fn read_recorded_params_bytes(path: &Path) -> Result<(Vec<u8>, bool)> {
    let bytes = read_bytes(path)?;
    let Ok(record) = fs::read_to_string(sha_path(path)) else {
        return Ok((bytes, false));
    };
    let expected = record.split_whitespace().next().unwrap_or("");
    if sha256_hex(&bytes) != expected {
        return Err(at(
            path,
            format!(
                "SHA-256 differs from the record in {}",
                sha_path(path).display()
            ),
        ));
    }
    Ok((bytes, true))
}

/// Writes a parameters file (of either backend) and its `<file>.sha256` record; returns the
/// SHA-256.
pub fn write_params_bytes(out: &Path, bytes: &[u8]) -> Result<String> {
    let digest = sha256_hex(bytes);
    write_atomic(out, bytes)?;
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    write_atomic(&sha_path(out), format!("{digest}  {name}\n").as_bytes())?;
    Ok(digest)
}

/// Reads parameters, checking them against the `<file>.sha256` record when there is one, and
/// warns when they are the insecure test parameters.
pub fn load_params(path: &Path) -> Result<ParamsKZG<Bn256>> {
    let bar = spinner("reading the parameters");
    let bytes = read_params_bytes(path)?;
    let params = read_params(&bytes).map_err(|e| at(path, e))?;
    bar.finish_and_clear();
    if is_insecure_test_params(&params) {
        eprintln!("{INSECURE_WARNING}: {}", path.display());
    }
    tracing::debug!(k = params.k(), "parameters loaded");
    Ok(params)
}

/// The message bytes of `--message 0x...` (any length, `0x` alone is the empty message) or
/// `--message-file FILE` (exactly one of them).
pub fn message_bytes(hex: Option<&str>, file: Option<&Path>) -> Result<Vec<u8>> {
    match (hex, file) {
        (Some(h), None) => {
            if h.len() > 2 + 2 * MAX_MESSAGE_BYTES {
                return Err(usage(format!(
                    "--message: longer than {MAX_MESSAGE_BYTES} bytes"
                )));
            }
            bytes_from_hex(h, "--message").map_err(|_| {
                usage("--message: 0x followed by hex digits (bytes), an even number of them")
            })
        }
        (None, Some(path)) => {
            let len = fs::metadata(path)
                .map_err(|e| at(path, format!("cannot read: {e}")))?
                .len();
            if len > MAX_MESSAGE_BYTES as u64 {
                return Err(at(path, format!("longer than {MAX_MESSAGE_BYTES} bytes")));
            }
            read_bytes(path)
        }
        _ => Err(usage(
            "give the message as --message 0x... or --message-file FILE",
        )),
    }
}

/// The randomness of `tms committee`'s keys: from `--seed` (reproducible test committees), else
/// the OS.
pub fn committee_rng(seed: Option<u64>) -> ChaCha20Rng {
    match seed {
        Some(s) => ChaCha20Rng::seed_from_u64(s),
        None => ChaCha20Rng::from_rng(OsRng).expect("OS randomness"),
    }
}

/// A member's secret key as `tms committee` makes it and writes it to its member file.
pub trait MemberSecret: Sized {
    /// The backend its member file names (`None`: BN254).
    const BACKEND: Option<&'static str>;
    /// A fresh key.
    fn random(rng: &mut ChaCha20Rng) -> Self;
    /// The member file's (secret key, public key) hex.
    fn to_hex(&self) -> (String, String);
}

/// Keys for `size` members (from `seed`, or the OS): secret keys of `scheme` to
/// `keys_dir/member-<i>.json`; returns them.
pub fn member_keys<K: MemberSecret>(
    scheme: Scheme,
    size: usize,
    seed: Option<u64>,
    keys_dir: &Path,
) -> Result<Vec<K>> {
    let mut rng = committee_rng(seed);
    let keys: Vec<K> = (0..size).map(|_| K::random(&mut rng)).collect();
    write_member_files(scheme, K::BACKEND, keys_dir, keys.iter().map(K::to_hex))?;
    Ok(keys)
}

/// Writes the members' secret key files `keys_dir/member-<i>.json` of `scheme` on `backend`
/// (`None`: BN254), each from its (secret key, public key) hex.
pub fn write_member_files(
    scheme: Scheme,
    backend: Option<&str>,
    keys_dir: &Path,
    members: impl Iterator<Item = (String, String)>,
) -> Result<()> {
    fs::create_dir_all(keys_dir).map_err(|e| at(keys_dir, format!("cannot create: {e}")))?;
    for (index, (secret_key, public_key)) in members.enumerate() {
        let file = MemberFile {
            header: Header::on(scheme, backend),
            index,
            secret_key,
            public_key,
        };
        write_json(&keys_dir.join(format!("member-{index}.json")), &file)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::spinner_on;

    #[test]
    fn no_spinner_is_drawn_off_a_terminal() {
        let bar = spinner_on(false, "a long step");
        assert!(bar.is_hidden());
        // Hidden, it takes every update silently.
        bar.set_message("another step");
        bar.finish_and_clear();
    }
}
