//! The guide's command blocks run: every shell block of `docs/src` tagged `sh,runnable` (its
//! fence's info string) runs against the built `tms`, and any non-zero exit fails the test.
//!
//! Each page's blocks run in order in one `bash -euo pipefail` (so a later block uses the files
//! an earlier one made), in a fresh directory, with the built binary first on `PATH` as `tms`;
//! `TMS_REPO` is the repository root. Blocks are written at small sizes on insecure test
//! parameters, so the whole guide runs in CI in a few minutes. The page structure is checked
//! too: every page in `SUMMARY.md`, at most 400 lines, `README.md` at most 200.

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
    time::Instant,
};

const REPO: &str = env!("CARGO_MANIFEST_DIR");
const TAG: &str = "runnable";

/// One tagged block: where it starts and its lines.
#[derive(Debug, PartialEq)]
struct Block {
    line: usize,
    code: String,
}

/// The blocks of `markdown` fenced with an info string whose first word is `sh` or `bash` and
/// which carries the `runnable` attribute (comma- or space-separated: ```` ```sh,runnable ````).
fn runnable_blocks(markdown: &str) -> Vec<Block> {
    let mut blocks = vec![];
    let mut open: Option<(usize, bool, String)> = None;
    for (i, line) in markdown.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        match (&mut open, fence) {
            (None, true) => {
                let info = line.trim_start().trim_start_matches('`');
                let mut words = info.split(|c: char| c == ',' || c.is_whitespace());
                let shell = matches!(words.next(), Some("sh" | "bash"));
                let runnable = shell && words.any(|w| w == TAG);
                open = Some((i + 1, runnable, String::new()));
            }
            (Some(_), true) => {
                let (start, runnable, code) = open.take().expect("open");
                if runnable {
                    blocks.push(Block { line: start, code });
                }
            }
            (Some((_, _, code)), false) => {
                code.push_str(line);
                code.push('\n');
            }
            (None, false) => {}
        }
    }
    assert!(open.is_none(), "a code fence is not closed");
    blocks
}

/// Every Markdown page under `dir`, sorted.
fn pages(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    for entry in fs::read_dir(dir).expect("docs/src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            out.extend(pages(&path));
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The script for `blocks` of page `name`: each block announced on stderr, so a failure names it.
fn script(name: &str, blocks: &[Block]) -> String {
    blocks
        .iter()
        .map(|b| format!("echo '== {name}:{}' >&2\n{}", b.line, b.code))
        .collect()
}

/// Runs `script` in a fresh `dir` with `tms` on `PATH`; the error says what failed.
fn run(dir: &Path, script: &str) -> Result<(), String> {
    let _ = fs::remove_dir_all(dir);
    let bin = dir.join(".bin");
    fs::create_dir_all(&bin).expect("work directory");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_tms"), bin.join("tms")).expect("link tms");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("bash")
        .args(["-euo", "pipefail", "-c", script])
        .current_dir(dir)
        .env("PATH", path)
        .env("TMS_REPO", REPO)
        .output()
        .map_err(|e| format!("cannot run bash: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let block = stderr
        .lines()
        .rev()
        .find(|l| l.starts_with("== "))
        .unwrap_or("(before the first block)");
    let tail: Vec<&str> = stderr.lines().rev().take(15).collect();
    Err(format!(
        "block {} exited with {}; last lines of stderr:\n{}\nstdout:\n{}",
        block.trim_start_matches("== "),
        out.status,
        tail.into_iter().rev().collect::<Vec<_>>().join("\n"),
        String::from_utf8_lossy(&out.stdout)
    ))
}

fn work_dir(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("docs-runnable")
        .join(name.replace('/', "-"))
}

#[test]
fn every_runnable_block_of_the_guide_runs() {
    let src = Path::new(REPO).join("docs/src");
    let mut failures = vec![];
    let mut ran = 0;
    for page in pages(&src) {
        let name = page
            .strip_prefix(&src)
            .expect("under docs/src")
            .display()
            .to_string();
        let blocks = runnable_blocks(&fs::read_to_string(&page).expect("page"));
        if blocks.is_empty() {
            continue;
        }
        let start = Instant::now();
        let result = run(&work_dir(&name), &script(&name, &blocks));
        println!(
            "docs-runnable page={name} blocks={} seconds={:.1} {}",
            blocks.len(),
            start.elapsed().as_secs_f64(),
            if result.is_ok() { "ok" } else { "FAILED" }
        );
        ran += blocks.len();
        if let Err(e) = result {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(ran >= 5, "only {ran} runnable blocks found under docs/src");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_extractor_takes_tagged_shell_blocks_only() {
    let page = "text\n```sh,runnable\ntms demo\necho a\n```\n```sh\nnot run\n```\n\
                ```json\n{\"runnable\": 1}\n```\n```bash runnable\ntrue\n```\n\
                ```rust,runnable\nfn main() {}\n```\n";
    assert_eq!(
        runnable_blocks(page),
        vec![
            Block {
                line: 2,
                code: "tms demo\necho a\n".into()
            },
            Block {
                line: 12,
                code: "true\n".into()
            },
        ]
    );
}

#[test]
fn a_failing_block_fails_and_is_named() {
    // A failing command in the middle of a block, a failing pipeline's first stage, an unset
    // variable: each fails its page, naming the block.
    for (i, bad) in [
        "true\nfalse\ntrue\n",
        "false | cat\n",
        "echo \"$UNSET_VARIABLE\"\n",
    ]
    .iter()
    .enumerate()
    {
        let blocks = [
            Block {
                line: 1,
                code: "tms --version\n".into(),
            },
            Block {
                line: 7,
                code: bad.to_string(),
            },
        ];
        let err = run(
            &work_dir(&format!("self-test-{i}")),
            &script("bad.md", &blocks),
        )
        .expect_err(bad);
        assert!(err.contains("block bad.md:7 exited"), "{err}");
    }
    let ok = [Block {
        line: 1,
        code: "tms --version\n".into(),
    }];
    run(&work_dir("self-test-ok"), &script("ok.md", &ok)).expect("tms on PATH");
}

#[test]
fn every_page_is_in_the_summary_and_short() {
    let src = Path::new(REPO).join("docs/src");
    let summary = fs::read_to_string(src.join("SUMMARY.md")).expect("SUMMARY.md");
    for page in pages(&src) {
        let name = page
            .strip_prefix(&src)
            .expect("under docs/src")
            .display()
            .to_string();
        let lines = fs::read_to_string(&page).expect("page").lines().count();
        assert!(lines <= 400, "{name}: {lines} lines (at most 400 a page)");
        if name != "SUMMARY.md" {
            assert!(
                summary.contains(&format!("({name})")),
                "{name} is not listed in SUMMARY.md"
            );
        }
    }
    let readme = fs::read_to_string(Path::new(REPO).join("README.md")).expect("README.md");
    let lines = readme.lines().count();
    assert!(lines <= 200, "README.md: {lines} lines (at most 200)");
}

/// The reference pages of every command: `tms --help` and each command's and subcommand's
/// `--help`, verbatim, on the page its group names (a command no group names goes on the first).
const COMMAND_PAGES: &[(&str, &str, &[&str])] = &[
    (
        "reference/commands.md",
        "Every command's help",
        &[
            "",
            "committee",
            "register",
            "sign",
            "certify",
            "setup",
            "check",
            "hash",
            "demo",
        ],
    ),
    (
        "reference/commands-proofs.md",
        "Keys, proofs and verification: every option",
        &["keygen", "prove", "serve", "verify"],
    ),
    (
        "reference/commands-onchain.md",
        "On-chain exports: every option",
        &["export-verifier", "export-plutus", "wrap"],
    ),
    (
        "reference/commands-aggregate.md",
        "Aggregation: every option",
        &["aggregate"],
    ),
    (
        "reference/commands-chain.md",
        "Mithril chains: every option",
        &["chain"],
    ),
    (
        "reference/commands-chunk.md",
        "Committees in chunks: every option",
        &["chunk"],
    ),
];

/// `tms <path> --help`.
fn help(path: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tms"))
        .args(path)
        .arg("--help")
        .output()
        .expect("run tms --help");
    assert!(out.status.success(), "tms {path:?} --help");
    String::from_utf8(out.stdout).expect("UTF-8 help")
}

/// The names under `Commands:` in a help text (`help` itself left out).
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // A name is indented by two spaces; a wrapped description by more.
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// The text of each reference page, from the built binary.
fn command_pages() -> Vec<(&'static str, String)> {
    let top = subcommands(&help(&[]));
    let mut texts: Vec<(&str, String)> = COMMAND_PAGES
        .iter()
        .map(|(page, title, _)| {
            (
                *page,
                format!(
                    "# {title}\n\nGenerated from the built `tms` (`tms --help` and each command's \
                     `--help`): a test compares this page with the binary; after changing an \
                     option, regenerate it with `TMS_BLESS=1 cargo test --test docs_runnable \
                     command_reference`.\n"
                ),
            )
        })
        .collect();
    let mut section = |page: usize, path: &[&str]| {
        let name = if path.is_empty() {
            "tms".to_string()
        } else {
            format!("tms {}", path.join(" "))
        };
        let text = help(path);
        texts[page].1.push_str(&format!(
            "\n## `{name}`\n\n```text\n{}\n```\n",
            text.trim_end()
        ));
        text
    };
    section(0, &[]);
    for command in &top {
        let page = COMMAND_PAGES
            .iter()
            .position(|(_, _, names)| names.contains(&command.as_str()))
            .unwrap_or(0);
        let text = section(page, &[command.as_str()]);
        for sub in subcommands(&text) {
            section(page, &[command.as_str(), sub.as_str()]);
        }
    }
    texts
}

#[test]
fn command_reference_is_the_help_of_the_built_tms() {
    let src = Path::new(REPO).join("docs/src");
    let bless = std::env::var_os("TMS_BLESS").is_some();
    for (page, text) in command_pages() {
        let path = src.join(page);
        if bless {
            fs::write(&path, &text).expect("write the reference page");
            continue;
        }
        let committed = fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == text,
            "{page} differs from the built tms's help: regenerate it with TMS_BLESS=1 cargo test \
             --test docs_runnable command_reference"
        );
    }
}
