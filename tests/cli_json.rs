//! What scripts and terminals get from `tms`: `tms verify --json` prints the verdict, the
//! trusted statement, how the key was trusted and the timings as one JSON object (a refused
//! proof too, with exit code 1), as `keygen`, `prove` and `chain extend --json` print what they
//! made and their timings; and the progress spinners draw nothing when stderr is not a terminal
//! but do on one. `tms serve` answers each request line with `tms prove --json`'s object.

use std::{
    io::Write,
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
};

const MSG: &str = "0x68656c6c6f";
const OTHER: &str = "0x6f74686572";

fn tms(dir: &Path, args: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tms"))
        .current_dir(dir)
        .args(args.split_whitespace())
        .output()
        .expect("run tms")
}

fn ok(dir: &Path, args: &str) -> Output {
    let out = tms(dir, args);
    assert!(
        out.status.success(),
        "tms {args}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn workdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn json(out: &Output) -> serde_json::Value {
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().count(), 1, "one JSON object: {stdout}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

/// Asserts the object's `seconds` has every one of `steps`, none negative.
fn timed(v: &serde_json::Value, steps: &[&str]) {
    for step in steps {
        let s = v["seconds"][step].as_f64();
        assert!(s.is_some_and(|s| s >= 0.0), "seconds.{step}: {v}");
    }
}

#[test]
fn verify_json_prints_the_verdict_the_statement_and_the_timings() {
    let d = workdir("cli-json");
    ok(
        &d,
        "committee --size 4 --seed 3 --out committee.json --keys-dir keys",
    );
    for i in [0, 1, 3] {
        ok(
            &d,
            &format!("sign --key keys/member-{i}.json --message {MSG} --out s{i}.json"),
        );
    }
    ok(
        &d,
        &format!(
            "certify --committee committee.json --message {MSG} --out cert.json s0.json s1.json \
             s3.json"
        ),
    );
    let setup = ok(&d, "setup --k 13 --insecure-test --out params.srs");
    // stderr is a pipe here: the warning, and no spinner.
    let stderr = String::from_utf8_lossy(&setup.stderr);
    assert!(stderr.contains("INSECURE"), "{stderr}");
    assert!(!stderr.contains("making the parameters"), "{stderr}");
    let keygen = ok(
        &d,
        "keygen --committee committee.json --params params.srs --pk atms.pk --vk atms.vk --json",
    );
    let k = json(&keygen);
    assert_eq!(k["generated"], true, "{k}");
    assert_eq!(
        (&k["scheme"], &k["backend"]),
        (&"schnorr-atms".into(), &"bn254".into())
    );
    assert_eq!(
        (&k["pk"], &k["vk"]),
        (&"atms.pk".into(), &"atms.vk".into()),
        "{k}"
    );
    assert!(k["keys"].as_str().unwrap().starts_with("4 members"), "{k}");
    // The fingerprint printed is the one `verify --vk-fingerprint` checks below.
    let fp = k["fingerprint"].as_str().unwrap().to_owned();
    assert_eq!(fp.len(), 64, "{k}");
    timed(&k, &["parameters", "keygen", "total"]);
    let prove = ok(
        &d,
        "prove --committee committee.json --certificate cert.json --threshold 3 --params \
         params.srs --pk atms.pk --proof proof.bin --public public.json --json",
    );
    let p = json(&prove);
    assert_eq!(p["proved"], true, "{p}");
    let proof_bytes = std::fs::metadata(d.join("proof.bin")).unwrap().len();
    assert_eq!(p["bytes"].as_u64(), Some(proof_bytes), "{p}");
    assert_eq!(
        (&p["proof"], &p["public"]),
        (&"proof.bin".into(), &"public.json".into())
    );
    assert_eq!(p["transcript"], "blake2b", "{p}");
    assert!(p["calldata"].is_null(), "{p}");
    // The statement printed is the one written to public.json.
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("public.json")).unwrap()).unwrap();
    assert_eq!(p["statement"], written, "{p}");
    timed(&p, &["parameters", "key", "witness", "proof", "total"]);
    // Refused: "proved": false and the reason on stdout, the error line on stderr, exit 1.
    let refused = tms(
        &d,
        "prove --committee committee.json --certificate cert.json --threshold 4 --params \
         params.srs --pk atms.pk --proof p4.bin --public p4.json --json",
    );
    assert_eq!(refused.status.code(), Some(1));
    let r = json(&refused);
    assert_eq!(r["proved"], false, "{r}");
    assert!(r["error"].as_str().unwrap().contains("threshold"), "{r}");
    assert!(String::from_utf8_lossy(&refused.stderr).contains("error: "));
    // No terminal drawing (escape sequences, spinner text) when stderr is a pipe, for every
    // step that draws on a terminal: parameters, reading them, keygen, the proving key, proving.
    for out in [&setup, &keygen, &prove] {
        assert!(!out.stderr.contains(&0x1b), "{out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        for said in ["reading the", "generating", "proving"] {
            assert!(!stderr.contains(said), "{stderr}");
        }
    }
    let verify = format!(
        "verify --committee committee.json --message {MSG} --params params.srs --vk atms.vk \
         --proof proof.bin --vk-fingerprint {fp}"
    );

    // Without --json: the verdict lines, unchanged.
    let plain = ok(&d, &format!("{verify} --threshold 3"));
    let plain = String::from_utf8_lossy(&plain.stdout).into_owned();
    assert!(
        plain.starts_with("verified (schnorr-atms): at least 3 of 4"),
        "{plain}"
    );

    let v = json(&ok(&d, &format!("{verify} --threshold 3 --json")));
    assert_eq!(v["verified"], true, "{v}");
    assert_eq!(v["scheme"], "schnorr-atms");
    assert_eq!(v["backend"], "bn254");
    assert_eq!(v["verdict"], plain.lines().next().unwrap(), "{v}");
    assert_eq!(
        v["key"],
        format!("verifying key pinned (sha256 {fp})"),
        "{v}"
    );
    // The statement is the verifier's: the prover's public.json says the same, and is not read.
    let public: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("public.json")).unwrap()).unwrap();
    let statement = &v["statement"];
    assert_eq!(statement["threshold"], 3);
    assert_eq!(statement["message"], MSG);
    assert_eq!(statement["commitment"], public["commitment"]);
    assert_eq!(statement["shape"], public["shape"]);
    for step in ["parameters", "key", "proof", "total"] {
        let s = v["seconds"][step]
            .as_f64()
            .unwrap_or_else(|| panic!("seconds.{step}: {v}"));
        assert!(s >= 0.0, "{v}");
    }
    assert!(v["seconds"]["total"].as_f64() >= v["seconds"]["proof"].as_f64());

    // A stronger claim than proved: "verified": false with the reason on stdout, the error
    // line on stderr, exit code 1.
    let refused = tms(&d, &format!("{verify} --threshold 4 --json"));
    assert_eq!(refused.status.code(), Some(1));
    let v = json(&refused);
    assert_eq!(v["verified"], false, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("does not verify"),
        "{v}"
    );
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("error: "), "{stderr}");
    // A key neither pinned nor regenerated: refused before any proof is read, in JSON too.
    let unpinned = tms(
        &d,
        &format!(
            "verify --committee committee.json --message {MSG} --params params.srs --vk \
             atms.vk --proof proof.bin --threshold 3 --json"
        ),
    );
    assert_eq!(unpinned.status.code(), Some(1));
    let v = json(&unpinned);
    assert_eq!(v["verified"], false, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("--vk-fingerprint"),
        "{v}"
    );
}

/// On a terminal (a pseudo-terminal made by util-linux's `script`), a long step draws its
/// spinner on stderr.
#[test]
fn a_spinner_is_drawn_on_a_terminal() {
    let d = workdir("cli-terminal");
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: util-linux's `script` is not installed");
        return;
    }
    let command = format!(
        "{} setup --k 16 --insecure-test --out params.srs",
        env!("CARGO_BIN_EXE_tms")
    );
    let out = Command::new("script")
        .current_dir(&d)
        .args(["-qec", &command, "/dev/null"])
        .output()
        .expect("run script");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("making the parameters"), "{text}");
    assert!(text.contains("parameters for 2^16 rows written"), "{text}");
}

/// `tms chain extend --json` refused before any parameters are read: `"extended": false` and
/// the reason, exit code 1.
#[test]
fn chain_extend_json_says_why_it_refused() {
    let d = workdir("cli-json-chain");
    let out = tms(
        &d,
        "chain extend --registration r0.json --next-registration r1.json --certificate c0.json \
         --params p.srs --pk m.pk --chain-params c.srs --proof chain.proof --vk step.vk --json",
    );
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    assert_eq!(v["extended"], false, "{v}");
    assert_eq!(
        (&v["scheme"], &v["backend"]),
        (&"mithril".into(), &"bn254".into())
    );
    assert!(v["error"].as_str().unwrap().contains("r0.json"), "{v}");
    assert!(v["seconds"]["total"].as_f64().is_some(), "{v}");
}

/// `tms serve` with `requests` on its stdin.
fn serve(dir: &Path, args: &str, requests: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tms"))
        .current_dir(dir)
        .args(args.split_whitespace())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tms serve");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(requests)
        .unwrap();
    child.wait_with_output().expect("tms serve exits")
}

/// A certificate of members 0, 1 and 3 of the 4-member committee on `message`.
fn certify(d: &Path, message: &str, out: &str) {
    for i in [0, 1, 3] {
        ok(
            d,
            &format!("sign --key keys/member-{i}.json --message {message} --out s{i}.json"),
        );
    }
    ok(
        d,
        &format!(
            "certify --committee committee.json --message {message} --out {out} s0.json \
             s1.json s3.json"
        ),
    );
}

/// `tms serve`: the parameters and proving key read once, then one request per line of stdin,
/// each answered by one JSON line (`tms prove --json`'s object and the request's line number); a
/// refused request (a threshold the certificate does not meet, a line that is not a request, an
/// unknown field, an unknown transcript) is answered with its error and the next one is served.
/// The proofs it writes verify under the pinned key for the verifier's statements only.
#[test]
fn serve_proves_each_request_and_answers_refusals_without_stopping() {
    let d = workdir("cli-serve");
    ok(
        &d,
        "committee --size 4 --seed 3 --out committee.json --keys-dir keys",
    );
    certify(&d, MSG, "cert.json");
    certify(&d, OTHER, "other.json");
    ok(&d, "setup --k 13 --insecure-test --out params.srs");
    let keygen = ok(
        &d,
        "keygen --committee committee.json --params params.srs --pk atms.pk --vk atms.vk --json",
    );
    let keygen: serde_json::Value = serde_json::from_slice(&keygen.stdout).unwrap();
    let fp = keygen["fingerprint"].as_str().unwrap().to_owned();

    let request = |cert: &str, t: u64, proof: &str, extra: &str| {
        format!(
            r#"{{"committee": "committee.json", "certificate": "{cert}", "threshold": {t}, "proof": "{proof}", "public": "{proof}.json"{extra}}}"#
        )
    };
    let requests = [
        request("cert.json", 3, "a.bin", ""),
        request("cert.json", 4, "b.bin", ""),
        "not a request".to_owned(),
        request("cert.json", 3, "c.bin", r#", "key": "atms.pk""#),
        request("cert.json", 3, "d.bin", r#", "transcript": "sha256""#),
        request("cert.json", 3, "atms.pk", ""),
        String::new(),
        request("other.json", 2, "e.bin", r#", "transcript": "evm""#),
    ]
    .join("\n");
    let key = std::fs::read(d.join("atms.pk")).unwrap();
    let out = serve(
        &d,
        "serve --params params.srs --pk atms.pk",
        requests.as_bytes(),
    );
    assert_eq!(
        std::fs::read(d.join("atms.pk")).unwrap(),
        key,
        "the key file changed"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Five refused: exit 1, each refusal on stderr too.
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("proving key read in"), "{stderr}");
    assert!(stderr.contains("7 requests, 5 refused"), "{stderr}");
    let answers: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(answers.len(), 7, "one answer per request: {answers:?}");
    let proved: Vec<bool> = answers.iter().map(|a| a["proved"] == true).collect();
    assert_eq!(
        proved,
        [true, false, false, false, false, false, true],
        "{answers:?}"
    );
    // Answers carry the request's line (the blank line 7 is skipped).
    assert_eq!(answers[0]["request"], 1);
    assert_eq!(answers[6]["request"], 8);
    let error = |i: usize| answers[i]["error"].as_str().unwrap().to_owned();
    assert!(error(1).starts_with("request 2: "), "{}", error(1));
    assert!(error(1).contains("threshold"), "{}", error(1));
    assert!(error(2).contains("not a request"), "{}", error(2));
    assert!(error(3).contains("unknown field"), "{}", error(3));
    assert!(
        error(4).contains("blake2b, evm or poseidon"),
        "{}",
        error(4)
    );
    for (i, answer) in answers.iter().enumerate() {
        assert_eq!(answer["scheme"], "schnorr-atms", "{i}: {answer}");
        assert!(answer["seconds"]["total"].as_f64().unwrap() >= 0.0);
    }
    // Each answer's timings are its own request's: the key was read once, before them.
    assert!(answers[0]["seconds"]["key"].is_null(), "{}", answers[0]);
    assert!(answers[0]["seconds"]["proof"].as_f64().unwrap() > 0.0);
    assert_eq!(answers[6]["transcript"], "evm");
    assert!(d.join("e.bin.calldata").exists());
    for refused in ["b.bin", "c.bin", "d.bin"] {
        assert!(!d.join(refused).exists(), "{refused} written");
    }

    // The proofs verify for the verifier's statements, and only for those.
    let verify = |proof: &str, message: &str, t: u64, transcript: &str| {
        tms(
            &d,
            &format!(
                "verify --committee committee.json --message {message} --threshold {t} \
                 --params params.srs --vk atms.vk --vk-fingerprint {fp} --proof {proof} \
                 --transcript {transcript}"
            ),
        )
    };
    assert!(verify("a.bin", MSG, 3, "blake2b").status.success());
    assert!(!verify("a.bin", OTHER, 3, "blake2b").status.success());
    assert!(verify("e.bin", OTHER, 2, "evm").status.success());
    assert!(!verify("e.bin", OTHER, 3, "evm").status.success());

    // A line that is not UTF-8 (CRLF endings otherwise taken) is one refused request: the
    // next one is served.
    let mut bytes = b"\xff\xfe\r\n".to_vec();
    bytes.extend(request("cert.json", 3, "f.bin", "").as_bytes());
    bytes.extend(b"\r\n");
    let out = serve(&d, "serve --params params.srs --pk atms.pk", &bytes);
    assert_eq!(out.status.code(), Some(1));
    let answers: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert!(
        answers[0]["error"].as_str().unwrap().contains("not UTF-8"),
        "{}",
        answers[0]
    );
    assert_eq!(answers[1]["proved"], true, "{}", answers[1]);
    assert!(verify("f.bin", MSG, 3, "blake2b").status.success());

    // Nothing to serve when the key cannot be read: one error, exit 1, no answer.
    let out = serve(
        &d,
        "serve --params params.srs --pk missing.pk",
        requests.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.pk"));
}
