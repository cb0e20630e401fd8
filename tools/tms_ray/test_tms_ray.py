"""The Ray driver on a local cluster: chunk proofs as tasks, a worker killed mid-proof and
retried, a corrupted chunk proof refused by the join with a clear error.

Needs the tms binary (``cargo build --release``) and ``pip install -r
tools/tms_ray/requirements.txt``. The corrupted-proof test stops before the join's proof
(seconds); the end-to-end test proves the join (minutes, GiB) and runs only with
``TMS_RAY_E2E=1``:

    TMS_RAY_E2E=1 python -m pytest -s tools/tms_ray

``TMS_RAY_CHUNKS`` (default 4), ``TMS_RAY_FANOUT`` (inputs per join, default: all chunks in one
join; 2 with 4 chunks makes a tree of three joins) and ``TMS_RAY_JOIN_K`` (default 22) size it;
``TMS_RAY_WRAP=1`` wraps each chunk proof alone first; ``TMS_BIN`` points at another binary.
"""

import os
import pathlib
import subprocess

import pytest
import ray

from tools.tms_ray.driver import Fault, Job, TmsError, run

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Absolute: the commands run in temporary folders.
TMS = str(pathlib.Path(os.environ.get("TMS_BIN", ROOT / "target" / "release" / "tms")).resolve())
MESSAGE = "0x" + b"sidechain epoch 9".hex()
CHUNKS = int(os.environ.get("TMS_RAY_CHUNKS", "4"))
FANOUT = int(os.environ["TMS_RAY_FANOUT"]) if os.environ.get("TMS_RAY_FANOUT") else None
JOIN_K = int(os.environ.get("TMS_RAY_JOIN_K", "22"))
WRAP = bool(os.environ.get("TMS_RAY_WRAP"))
SIGNERS = [0, 1, 2, 3, 4, 5, 6, 9, 12, 13, 14, 15]


def tms(cwd, *args):
    out = subprocess.run([TMS, *args], cwd=cwd, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.fixture(scope="module")
def committee(tmp_path_factory):
    """16 members, 12 signers; parameters for the join (k = JOIN_K) and the chunks (k = 15)."""
    if not os.path.exists(TMS):
        pytest.skip(f"no tms binary at {TMS} (cargo build --release)")
    d = tmp_path_factory.mktemp("committee")
    tms(d, "committee", "--size", "16", "--seed", "3", "--out", "committee.json",
        "--keys-dir", "keys")
    for i in SIGNERS:
        tms(d, "sign", "--key", f"keys/member-{i}.json", "--message", MESSAGE,
            "--out", f"s{i}.json")
    tms(d, "certify", "--committee", "committee.json", "--message", MESSAGE, "--out",
        "cert.json", *[f"s{i}.json" for i in SIGNERS])
    tms(d, "setup", "--k", str(JOIN_K), "--insecure-test", "--out", "agg.srs")
    tms(d, "setup", "--k", "15", "--halo2", "agg.srs", "--out", "params.srs")
    return d


@pytest.fixture(scope="module", autouse=True)
def local_cluster():
    ray.init(num_cpus=2)
    yield
    ray.shutdown()


def job(d, out, chunks=CHUNKS, fanout=FANOUT, wrap=WRAP, **fault):
    return Job(tms=TMS, committee=d / "committee.json", certificate=d / "cert.json",
               chunks=chunks, threshold=len(SIGNERS), params=d / "params.srs",
               aggregation_params=d / "agg.srs", out_dir=out, fanout=fanout, wrap=wrap,
               memory_gib=1, join_memory_gib=1, fault=Fault(**fault))


def test_a_corrupted_chunk_proof_is_refused_by_the_join(committee, tmp_path):
    refused = r"tms chunk join: error: c1\.bin: does not verify as chunk 1"
    with pytest.raises(TmsError, match=f"^join: {refused}"):
        run(job(committee, tmp_path, corrupt_chunk=1))
    assert not (tmp_path / "join.proof").exists()


def test_a_join_tree_refuses_a_corrupted_chunk_at_its_lower_join(committee, tmp_path):
    # 4 chunks, 2 per join: chunk 1 belongs to the lower join of subtree 0 of 2.
    refused = r"tms chunk join: error: c1\.bin: does not verify as chunk 1"
    with pytest.raises(TmsError, match=f"^join 0/2: {refused}"):
        run(job(committee, tmp_path, chunks=4, fanout=2, corrupt_chunk=1))
    assert not (tmp_path / "join.proof").exists()


def test_a_wrapped_run_refuses_a_corrupted_chunk_at_its_wrap(committee, tmp_path):
    # Each chunk proof is wrapped alone first: chunk 1's wrap is subtree 1 of 2. (Two chunks:
    # both wraps start at once on the two CPUs, and the sound one is cancelled.)
    refused = r"tms chunk join: error: c0\.bin: does not verify as the chunk "
    with pytest.raises(TmsError, match=f"^wrap 1/2: {refused}"):
        run(job(committee, tmp_path, chunks=2, fanout=2, wrap=True, corrupt_chunk=1))
    assert not (tmp_path / "join.proof").exists()


def test_a_fanout_that_is_not_a_power_of_two_is_refused(committee, tmp_path):
    with pytest.raises(TmsError, match="--fanout 3: a power of two"):
        run(job(committee, tmp_path, fanout=3))


@pytest.mark.skipif(not os.environ.get("TMS_RAY_E2E"), reason="minutes and GiB: TMS_RAY_E2E=1")
def test_a_killed_worker_is_retried_and_the_joined_proof_verifies(committee, tmp_path):
    marker = tmp_path / "killed"
    report = run(job(committee, tmp_path / "out", kill_chunk=1, marker=str(marker)))
    assert marker.exists(), "the worker proving chunk 1 was killed once"
    assert report["verified"].startswith(f"verified: at least {len(SIGNERS)} of the 16 members")
    print(report)
