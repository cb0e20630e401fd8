//! The Solidity compiler: solc-js, the npm `solc` package pinned in `evm/solc/package.json`
//! (the version snark-verifier's generated verifiers declare), run by Node through
//! `evm/solc/compile.js` with solc's standard JSON interface. Nothing is downloaded at run time:
//! `npm ci --prefix evm/solc` installs it (README set-up and `.ci/run`).

use std::{
    io::Write,
    path::PathBuf,
    process::{Command, Stdio},
};

use serde::Deserialize;

use crate::EvmError;

/// The solc version every contract here is compiled with.
pub const SOLC_VERSION: &str = "0.8.19";

/// A compiled contract.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Compiled {
    /// The creation code (what a deployment transaction carries, before constructor arguments).
    pub creation: Vec<u8>,
    /// The runtime code a deployment leaves on chain (what EIP-170 limits).
    pub runtime: Vec<u8>,
}

/// `compile.js`: `$TMS_SOLC_JS` if set, else the one in this crate's source tree.
pub fn compile_script() -> PathBuf {
    std::env::var_os("TMS_SOLC_JS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/solc/compile.js")))
}

#[derive(Deserialize)]
struct Output {
    version: String,
    errors: Vec<Diagnostic>,
    contracts: std::collections::BTreeMap<String, std::collections::BTreeMap<String, Code>>,
}

#[derive(Deserialize)]
struct Diagnostic {
    severity: String,
    message: String,
}

#[derive(Deserialize)]
struct Code {
    bytecode: String,
    deployed: String,
}

/// Compiles the Solidity `sources` (file name, source), with solc's optimizer if `optimize`, and
/// returns `contract` from `file`. snark-verifier's generated verifiers compile without it (as
/// its own `solc --bin` call does): their inline assembly runs out of stack slots with it.
pub fn compile(
    sources: &[(&str, &str)],
    file: &str,
    contract: &str,
    optimize: bool,
) -> Result<Compiled, EvmError> {
    compile_all(sources, file, optimize)?
        .remove(contract)
        .ok_or_else(|| EvmError::Compilation(format!("no contract {contract} in {file}")))
}

/// [`compile`], returning every contract of `file` by name.
pub fn compile_all(
    sources: &[(&str, &str)],
    file: &str,
    optimize: bool,
) -> Result<std::collections::BTreeMap<String, Compiled>, EvmError> {
    let script = compile_script();
    let modules = script.with_file_name("node_modules").join("solc");
    if !modules.is_dir() {
        return Err(EvmError::Compiler(format!(
            "{} is missing: run `npm ci --prefix {}`",
            modules.display(),
            script
                .parent()
                .map_or("evm/solc".into(), |p| p.display().to_string())
        )));
    }
    let request = serde_json::json!({
        "sources": sources.iter().map(|(n, s)| (n.to_string(), s.to_string()))
            .collect::<std::collections::BTreeMap<_, _>>(),
        "optimize": optimize,
    });
    let mut child = Command::new("node")
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| EvmError::Compiler(format!("cannot run node: {e}")))?;
    child
        .stdin
        .take()
        .ok_or_else(|| EvmError::Compiler("no stdin".into()))?
        .write_all(request.to_string().as_bytes())
        .map_err(|e| EvmError::Compiler(e.to_string()))?;
    let run = child
        .wait_with_output()
        .map_err(|e| EvmError::Compiler(e.to_string()))?;
    if !run.status.success() {
        return Err(EvmError::Compiler(format!(
            "{} failed: {}",
            script.display(),
            String::from_utf8_lossy(&run.stderr).trim()
        )));
    }
    let output: Output = serde_json::from_slice(&run.stdout)
        .map_err(|e| EvmError::Compiler(format!("unreadable output: {e}")))?;
    if !output.version.starts_with(SOLC_VERSION) {
        return Err(EvmError::Compiler(format!(
            "solc-js {} installed, {SOLC_VERSION} pinned: run `npm ci --prefix evm/solc`",
            output.version
        )));
    }
    let errors: Vec<&str> = output
        .errors
        .iter()
        .filter(|d| d.severity == "error")
        .map(|d| d.message.as_str())
        .collect();
    if !errors.is_empty() {
        return Err(EvmError::Compilation(errors.join("\n")));
    }
    let hex = |s: &str| hex::decode(s).map_err(|e| EvmError::Compiler(e.to_string()));
    output
        .contracts
        .get(file)
        .ok_or_else(|| EvmError::Compilation(format!("no file {file} in the output")))?
        .iter()
        .map(|(name, code)| {
            Ok((
                name.clone(),
                Compiled {
                    creation: hex(&code.bytecode)?,
                    runtime: hex(&code.deployed)?,
                },
            ))
        })
        .collect()
}
