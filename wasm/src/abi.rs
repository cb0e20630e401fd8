//! The module's exports: byte buffers in, a status and a result string out. The package's
//! JavaScript copies each argument into memory from [`tms_alloc`]; every export takes ownership
//! of its buffers and leaves its result (a verdict, a description or a one-line error) for
//! [`tms_result_ptr`] / [`tms_result_len`].
//!
//! No wasm-bindgen: the BN254 build sets the `target_feature = "atomics"` cfg (see
//! `wasm/build.sh`), under which wasm-bindgen needs a nightly compiler; this interface needs
//! nothing of it. The Cardano module (feature `cardano`) exports the same interface under
//! `tms_cardano_*` names.

use std::cell::RefCell;

#[cfg(feature = "cardano")]
use crate::cardano::{CardanoStatement, CardanoVerifier};
#[cfg(feature = "bn254")]
use crate::{
    aggregate::{CertificateStatement, PinnedAggregationVerifier},
    chain::{PinnedChainVerifier, TrustedChain},
    verifier::{parse_transcript, PinnedVerifier, Statement},
};

thread_local! {
    /// The last export's result.
    static RESULT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A status export's success.
const OK: u32 = 1;
/// A status export's refusal (the result holds the one-line reason).
const REFUSED: u32 = 0;

fn finish(result: Result<String, String>) -> u32 {
    let (status, text) = match result {
        Ok(text) => (OK, text),
        Err(e) => (REFUSED, e),
    };
    RESULT.with(|r| *r.borrow_mut() = text.into_bytes());
    status
}

/// Computes the `Fr::from(u64)` table's bytes ([`crate::fr_table::entries`]) into the result,
/// for the package to write where `wasm/strip-fr-table.mjs` cut the table out.
#[cfg(feature = "bn254")]
#[no_mangle]
pub extern "C" fn tms_fr_table_entries() -> u32 {
    RESULT.with(|r| *r.borrow_mut() = crate::fr_table::entries());
    OK
}

/// 1 if `Fr::from(u64)` agrees with field arithmetic on every table entry
/// ([`crate::fr_table::check`]), else 0: the package loads the module only on 1.
#[cfg(feature = "bn254")]
#[no_mangle]
pub extern "C" fn tms_fr_table_check() -> u32 {
    if crate::fr_table::check() {
        OK
    } else {
        REFUSED
    }
}

/// A made verifier as a handle for JavaScript (an empty result), or 0 with the reason as the
/// result.
fn into_handle<T>(made: Result<T, String>) -> usize {
    match made {
        Ok(verifier) => {
            finish(Ok(String::new()));
            Box::into_raw(Box::new(verifier)) as usize
        }
        Err(e) => {
            finish(Err(e));
            0
        }
    }
}

/// Takes back a buffer of `len` bytes from [`tms_alloc`].
///
/// # Safety
/// `ptr` and `len` are those of one [`tms_alloc`] call, not taken before.
unsafe fn take(ptr: *mut u8, len: usize) -> Vec<u8> {
    Vec::from_raw_parts(ptr, len, len)
}

/// [`take`] as UTF-8.
///
/// # Safety
/// As [`take`].
unsafe fn take_str(ptr: *mut u8, len: usize, what: &str) -> Result<String, String> {
    String::from_utf8(take(ptr, len)).map_err(|_| format!("{what}: not UTF-8"))
}

/// The message of the panic that trapped the module, if one did: a panic aborts (the module
/// traps with `unreachable`), so the hook keeps its one-line message for [`tms_panic_ptr`] /
/// [`tms_panic_len`], which the package reads to say why it trapped.
static PANIC: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());

/// Installs the hook that keeps a panic's message in [`PANIC`] (once; every call of the
/// package's starts with [`tms_alloc`]).
fn keep_panic_messages() {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            if let Ok(mut kept) = PANIC.try_lock() {
                *kept = info.to_string().replace('\n', " ");
            }
        }))
    });
}

/// Where the message of the panic that trapped the module is (empty if none did).
#[no_mangle]
pub extern "C" fn tms_panic_ptr() -> *const u8 {
    PANIC
        .try_lock()
        .map(|p| p.as_ptr())
        .unwrap_or(std::ptr::null())
}

/// The length in bytes of the message at [`tms_panic_ptr`].
#[no_mangle]
pub extern "C" fn tms_panic_len() -> usize {
    PANIC.try_lock().map(|p| p.len()).unwrap_or(0)
}

/// A buffer of `len` bytes for the caller to fill and hand to one export.
#[no_mangle]
pub extern "C" fn tms_alloc(len: usize) -> *mut u8 {
    keep_panic_messages();
    let mut buffer = Vec::<u8>::with_capacity(len);
    let ptr = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    ptr
}

/// Where the last export's result is.
#[no_mangle]
pub extern "C" fn tms_result_ptr() -> *const u8 {
    RESULT.with(|r| r.borrow().as_ptr())
}

/// The last export's result's length in bytes.
#[no_mangle]
pub extern "C" fn tms_result_len() -> usize {
    RESULT.with(|r| r.borrow().len())
}

/// A `*_verifier_new` call's arguments, taken over: the scheme, the key file and its pin, the
/// verifier parameters and their pin.
struct PinnedFiles {
    scheme: String,
    vk: Vec<u8>,
    vk_fingerprint: String,
    params: Vec<u8>,
    params_fingerprint: String,
}

/// Takes over the buffers of a `*_verifier_new` call (all of them, also when one is not UTF-8).
///
/// # Safety
/// Each (pointer, length) pair is one [`tms_alloc`] buffer, handed over.
unsafe fn take_pinned_files(
    scheme: (*mut u8, usize),
    vk: (*mut u8, usize),
    vk_fingerprint: (*mut u8, usize),
    params: (*mut u8, usize),
    params_fingerprint: (*mut u8, usize),
) -> Result<PinnedFiles, String> {
    let scheme = take_str(scheme.0, scheme.1, "scheme");
    let vk = take(vk.0, vk.1);
    let vk_fingerprint = take_str(
        vk_fingerprint.0,
        vk_fingerprint.1,
        "verifying key fingerprint",
    );
    let params = take(params.0, params.1);
    let params_fingerprint = take_str(
        params_fingerprint.0,
        params_fingerprint.1,
        "verifier parameters fingerprint",
    );
    Ok(PinnedFiles {
        scheme: scheme?,
        vk,
        vk_fingerprint: vk_fingerprint?,
        params,
        params_fingerprint: params_fingerprint?,
    })
}

/// A certificate `*_verify` call's statement and proof, taken over.
struct CertificateArgs {
    commitment: String,
    message: Vec<u8>,
    threshold: Option<u64>,
    proof: Vec<u8>,
    transcript: String,
}

/// Takes over the buffers of a certificate `*_verify` call (all of them, also on an error).
///
/// # Safety
/// Each (pointer, length) pair is one [`tms_alloc`] buffer, handed over.
unsafe fn take_certificate(
    commitment: (*mut u8, usize),
    message: (*mut u8, usize),
    threshold: f64,
    proof: (*mut u8, usize),
    transcript: (*mut u8, usize),
) -> Result<CertificateArgs, String> {
    let commitment = take_str(commitment.0, commitment.1, "commitment");
    let message = take(message.0, message.1);
    let proof = take(proof.0, proof.1);
    let transcript = take_str(transcript.0, transcript.1, "transcript");
    Ok(CertificateArgs {
        commitment: commitment?,
        message,
        threshold: threshold_from_js(threshold)?,
        proof,
        transcript: transcript?,
    })
}

/// The exports that make, describe and free a verifier of `$ty`, whose `new` takes a scheme, a
/// key file and its pin, and the verifier parameters and their pin (as `new`, `describe`, `free`).
macro_rules! pinned_verifier_exports {
    ($feature:literal, $ty:ident, $new:ident, $describe:ident, $free:ident) => {
        #[cfg(feature = $feature)]
        #[doc = concat!("A [`", stringify!($ty), "`] (see [`", stringify!($ty), "::new`]); returns its")]
        /// handle, or 0 with the reason as the result.
        ///
        /// # Safety
        /// Each (pointer, length) pair is one [`tms_alloc`] buffer, handed over.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $new(
            scheme: *mut u8,
            scheme_len: usize,
            vk: *mut u8,
            vk_len: usize,
            vk_fingerprint: *mut u8,
            vk_fingerprint_len: usize,
            params: *mut u8,
            params_len: usize,
            params_fingerprint: *mut u8,
            params_fingerprint_len: usize,
        ) -> usize {
            let files = take_pinned_files(
                (scheme, scheme_len),
                (vk, vk_len),
                (vk_fingerprint, vk_fingerprint_len),
                (params, params_len),
                (params_fingerprint, params_fingerprint_len),
            );
            into_handle(files.and_then(|f| {
                $ty::new(
                    &f.scheme,
                    &f.vk,
                    &f.vk_fingerprint,
                    &f.params,
                    &f.params_fingerprint,
                )
            }))
        }

        #[cfg(feature = $feature)]
        #[doc = concat!("Frees a [`", stringify!($ty), "`].")]
        ///
        /// # Safety
        #[doc = concat!("`handle` is one [`", stringify!($new), "`] returned, not freed before.")]
        #[no_mangle]
        pub unsafe extern "C" fn $free(handle: usize) {
            drop(Box::from_raw(handle as *mut $ty));
        }

        #[cfg(feature = $feature)]
        #[doc = concat!("What a [`", stringify!($ty), "`]'s key is for, as the result.")]
        ///
        /// # Safety
        #[doc = concat!("`handle` is a live [`", stringify!($new), "`] handle.")]
        #[no_mangle]
        pub unsafe extern "C" fn $describe(handle: usize) -> u32 {
            let verifier = &*(handle as *const $ty);
            finish(Ok(verifier.describe()))
        }
    };
}

pinned_verifier_exports!(
    "bn254",
    PinnedVerifier,
    tms_verifier_new,
    tms_verifier_describe,
    tms_verifier_free
);
pinned_verifier_exports!(
    "bn254",
    PinnedAggregationVerifier,
    tms_aggregation_verifier_new,
    tms_aggregation_verifier_describe,
    tms_aggregation_verifier_free
);
pinned_verifier_exports!(
    "cardano",
    CardanoVerifier,
    tms_cardano_verifier_new,
    tms_cardano_verifier_describe,
    tms_cardano_verifier_free
);

#[cfg(feature = "bn254")]
/// Verifies a proof for the statement the caller trusts (see [`PinnedVerifier::verify`]):
/// returns 1 with the verdict as the result, or 0 with the reason. `threshold` is a JavaScript
/// number; NaN stands for none (Mithril may omit it). `transcript` is `blake2b` or `evm`.
///
/// # Safety
/// `handle` is a live [`tms_verifier_new`] handle; each (pointer, length) pair is one
/// [`tms_alloc`] buffer, handed over.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn tms_verify(
    handle: usize,
    commitment: *mut u8,
    commitment_len: usize,
    message: *mut u8,
    message_len: usize,
    threshold: f64,
    proof: *mut u8,
    proof_len: usize,
    transcript: *mut u8,
    transcript_len: usize,
) -> u32 {
    let verifier = &*(handle as *const PinnedVerifier);
    let args = take_certificate(
        (commitment, commitment_len),
        (message, message_len),
        threshold,
        (proof, proof_len),
        (transcript, transcript_len),
    );
    finish(args.and_then(|a| {
        let statement = Statement {
            commitment: a.commitment,
            message: a.message,
            threshold: a.threshold,
            transcript: parse_transcript(&a.transcript)?,
        };
        verifier.verify(&statement, &a.proof)
    }))
}

#[cfg(feature = "bn254")]
/// A [`PinnedChainVerifier`] (see [`PinnedChainVerifier::new`]); returns its handle, or 0 with
/// the reason as the result.
///
/// # Safety
/// Each (pointer, length) pair is one [`tms_alloc`] buffer, handed over.
#[no_mangle]
pub unsafe extern "C" fn tms_chain_verifier_new(
    vk: *mut u8,
    vk_len: usize,
    vk_fingerprint: *mut u8,
    vk_fingerprint_len: usize,
    params: *mut u8,
    params_len: usize,
    params_fingerprint: *mut u8,
    params_fingerprint_len: usize,
) -> usize {
    let vk = take(vk, vk_len);
    let vk_fingerprint = take_str(vk_fingerprint, vk_fingerprint_len, "chain key fingerprint");
    let params = take(params, params_len);
    let params_fingerprint = take_str(
        params_fingerprint,
        params_fingerprint_len,
        "verifier parameters fingerprint",
    );
    let made =
        (|| PinnedChainVerifier::new(&vk, &vk_fingerprint?, &params, &params_fingerprint?))();
    into_handle(made)
}

#[cfg(feature = "bn254")]
/// Frees a chain verifier.
///
/// # Safety
/// `handle` is one [`tms_chain_verifier_new`] returned, not freed before.
#[no_mangle]
pub unsafe extern "C" fn tms_chain_verifier_free(handle: usize) {
    drop(Box::from_raw(handle as *mut PinnedChainVerifier));
}

#[cfg(feature = "bn254")]
/// What a chain verifier's key closes, as the result.
///
/// # Safety
/// `handle` is a live [`tms_chain_verifier_new`] handle.
#[no_mangle]
pub unsafe extern "C" fn tms_chain_verifier_describe(handle: usize) -> u32 {
    let verifier = &*(handle as *const PinnedChainVerifier);
    finish(Ok(verifier.describe()))
}

#[cfg(feature = "bn254")]
/// Verifies a chain proof file for the chain the caller trusts (see
/// [`PinnedChainVerifier::verify`]): returns 1 with the verdict as the result, or 0 with the
/// reason. `epochs` is a JavaScript number.
///
/// # Safety
/// `handle` is a live [`tms_chain_verifier_new`] handle; each (pointer, length) pair is one
/// [`tms_alloc`] buffer, handed over.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn tms_chain_verify(
    handle: usize,
    genesis: *mut u8,
    genesis_len: usize,
    last_registration: *mut u8,
    last_registration_len: usize,
    message: *mut u8,
    message_len: usize,
    epochs: f64,
    proof: *mut u8,
    proof_len: usize,
) -> u32 {
    let verifier = &*(handle as *const PinnedChainVerifier);
    let genesis = take_str(genesis, genesis_len, "genesis digest");
    let last_registration = take_str(
        last_registration,
        last_registration_len,
        "last registration digest",
    );
    let message = take(message, message_len);
    let proof = take(proof, proof_len);
    finish((|| {
        let epochs = threshold_from_js(epochs)
            .map_err(|_| format!("epochs {epochs}: give a positive integer"))?
            .filter(|&n| n > 0)
            .ok_or_else(|| format!("epochs {epochs}: give a positive integer"))?;
        let trusted = TrustedChain {
            genesis: genesis?,
            last_registration: last_registration?,
            message,
            epochs,
        };
        verifier.verify(&trusted, &proof)
    })())
}

#[cfg(feature = "bn254")]
/// Verifies an aggregation proof file for the certificates' statements the caller trusts (see
/// [`PinnedAggregationVerifier::verify`]): returns 1 with the verdict as the result, or 0 with
/// the reason. `statements`: one line per certificate, in order, `COMMITMENT,MESSAGE,THRESHOLD`
/// (`0x`-hex commitment and message bytes; an empty threshold for none).
///
/// # Safety
/// `handle` is a live [`tms_aggregation_verifier_new`] handle; each (pointer, length) pair is
/// one [`tms_alloc`] buffer, handed over.
#[no_mangle]
pub unsafe extern "C" fn tms_aggregation_verify(
    handle: usize,
    statements: *mut u8,
    statements_len: usize,
    proof: *mut u8,
    proof_len: usize,
) -> u32 {
    let verifier = &*(handle as *const PinnedAggregationVerifier);
    let statements = take_str(statements, statements_len, "statements");
    let proof = take(proof, proof_len);
    finish(statements.and_then(|text| {
        let statements = statement_lines(&text)?;
        verifier.verify(&statements, &proof)
    }))
}

/// The statements of [`tms_aggregation_verify`]: `COMMITMENT,MESSAGE,THRESHOLD` per line.
#[cfg(feature = "bn254")]
fn statement_lines(text: &str) -> Result<Vec<CertificateStatement>, String> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    text.split('\n')
        .enumerate()
        .map(|(i, line)| {
            let bad = || format!("certificate {i}: expected COMMITMENT,MESSAGE,THRESHOLD");
            let [commitment, message, threshold] = line.split(',').collect::<Vec<_>>()[..] else {
                return Err(bad());
            };
            let digits = message.strip_prefix("0x").ok_or_else(bad)?;
            if digits.len() % 2 != 0 || !digits.is_ascii() {
                return Err(bad());
            }
            let message = (0..digits.len())
                .step_by(2)
                .map(|at| u8::from_str_radix(&digits[at..at + 2], 16).map_err(|_| bad()))
                .collect::<Result<Vec<u8>, String>>()?;
            let threshold = match threshold {
                "" => None,
                t => Some(t.parse::<u64>().map_err(|_| {
                    format!("certificate {i}: threshold {t}: give a non-negative integer")
                })?),
            };
            Ok(CertificateStatement {
                commitment: commitment.to_string(),
                message,
                threshold,
            })
        })
        .collect()
}

/// Verifies a Cardano certificate proof for the statement the caller trusts (see
/// [`CardanoVerifier::verify`]): returns 1 with the verdict as the result, or 0 with the reason.
/// `threshold` is a JavaScript number; NaN stands for none (Mithril may omit it).
///
/// # Safety
/// `handle` is a live [`tms_cardano_verifier_new`] handle; each (pointer, length) pair is one
/// [`tms_alloc`] buffer, handed over.
#[cfg(feature = "cardano")]
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn tms_cardano_verify(
    handle: usize,
    commitment: *mut u8,
    commitment_len: usize,
    message: *mut u8,
    message_len: usize,
    threshold: f64,
    proof: *mut u8,
    proof_len: usize,
    transcript: *mut u8,
    transcript_len: usize,
) -> u32 {
    let verifier = &*(handle as *const CardanoVerifier);
    let args = take_certificate(
        (commitment, commitment_len),
        (message, message_len),
        threshold,
        (proof, proof_len),
        (transcript, transcript_len),
    );
    finish(args.and_then(|a| {
        let statement = CardanoStatement {
            commitment: a.commitment,
            message: a.message,
            threshold: a.threshold,
            transcript: a.transcript,
        };
        verifier.verify(&statement, &a.proof)
    }))
}

/// A JavaScript number as a threshold: NaN for none, else a non-negative integer JavaScript
/// represents exactly.
pub fn threshold_from_js(t: f64) -> Result<Option<u64>, String> {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    if t.is_nan() {
        return Ok(None);
    }
    if t.fract() != 0.0 || !(0.0..=MAX_SAFE).contains(&t) {
        return Err(format!("threshold {t}: give a non-negative integer"));
    }
    Ok(Some(t as u64))
}

/// rand_core's source of randomness on wasm32, which the verifier never draws from.
#[cfg(target_arch = "wasm32")]
fn no_randomness(_: &mut [u8]) -> Result<(), getrandom::Error> {
    Err(getrandom::Error::UNSUPPORTED)
}

#[cfg(target_arch = "wasm32")]
getrandom::register_custom_getrandom!(no_randomness);
