"""The driver: split, keygen, one Ray task per chunk proof, the join, then verification.

Every task runs the ``tms`` binary in a temporary folder of the node it lands on and returns
its output files as bytes, so nodes need the binary but no shared file system. Large inputs
(parameters, proving key) go through Ray's object store once.

Failures:
- a worker or node lost mid-task (killed, out of memory, machine gone) is a system failure:
  Ray runs the task again, up to ``retries`` times;
- ``tms`` refusing its input (a one-line ``error:`` and exit code 1) is the user's error and
  is not retried: the driver stops and names the chunk and the message.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import signal
import subprocess
import sys
import tempfile
import time
from typing import Optional

import ray


class TmsError(Exception):
    """``tms`` refused its input: not retried."""


def run_tms(tms: str, args: list[str], cwd: str, usage: Optional[dict] = None) -> str:
    """Runs ``tms args`` in ``cwd``; returns stdout, raises TmsError with its error line. With
    ``usage``, adds the run's CPU seconds (``cpu_s``) and peak resident MiB (``peak_mib``)."""
    with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        child = subprocess.Popen([tms, *args], cwd=cwd, stdout=stdout, stderr=stderr)
        _, status, rusage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        stdout.seek(0)
        stderr.seek(0)
        out, err = stdout.read().decode(), stderr.read().decode()
    if usage is not None:
        usage["cpu_s"] = usage.get("cpu_s", 0) + rusage.ru_utime + rusage.ru_stime
        usage["peak_mib"] = max(usage.get("peak_mib", 0), rusage.ru_maxrss / 1024)
    if child.returncode != 0:
        lines = [l for l in err.splitlines() if l.startswith("error: ")]
        reason = lines[0] if lines else err.strip()[-400:]
        raise TmsError(f"tms {' '.join(args[:2])}: {reason}")
    return out


def _write(folder: str, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        pathlib.Path(folder, name).write_bytes(data)


@dataclasses.dataclass
class Fault:
    """Test hooks: kill the worker proving ``kill_chunk`` once, mid-proof (``marker`` records
    that it happened), or flip a byte of ``corrupt_chunk``'s proof before the join."""

    kill_chunk: Optional[int] = None
    marker: Optional[str] = None
    corrupt_chunk: Optional[int] = None


def _prove_chunk(tms, index, committee, certificate, threshold, params, pk, fault):
    start = time.time()
    with tempfile.TemporaryDirectory(prefix=f"tms-chunk-{index}-") as d:
        _write(d, {
            "committee.json": committee,
            "certificate.json": certificate,
            "params.srs": params,
            "chunk.pk": pk,
        })
        args = [
            "prove", "--committee", "committee.json", "--certificate", "certificate.json",
            "--threshold", str(threshold), "--params", "params.srs", "--pk", "chunk.pk",
            "--proof", "proof.bin", "--public", "public.json", "--transcript", "poseidon",
        ]
        if fault.kill_chunk == index and not os.path.exists(fault.marker):
            # Mid-proof: start tms, let it work, then the worker dies with its child.
            pathlib.Path(fault.marker).write_text(f"killed chunk {index} once\n")
            child = subprocess.Popen([tms, *args], cwd=d, start_new_session=True)
            time.sleep(2)
            os.killpg(child.pid, signal.SIGKILL)
            os.kill(os.getpid(), signal.SIGKILL)
        usage: dict = {}
        run_tms(tms, args, d, usage)
        return {
            "index": index,
            "proof": pathlib.Path(d, "proof.bin").read_bytes(),
            "public": pathlib.Path(d, "public.json").read_bytes(),
            "wall_s": time.time() - start,
            **usage,
            "node": ray.get_runtime_context().get_node_id(),
        }


def _keygen(tms, committee, slots, params):
    with tempfile.TemporaryDirectory(prefix="tms-keygen-") as d:
        _write(d, {"committee.json": committee, "params.srs": params})
        run_tms(tms, [
            "keygen", "--committee", "committee.json", "--mode", "merkle", "--slots",
            str(slots), "--params", "params.srs", "--pk", "chunk.pk", "--vk", "chunk.vk",
        ], d)
        return pathlib.Path(d, "chunk.pk").read_bytes(), pathlib.Path(d, "chunk.vk").read_bytes()


def _join(tms, committee, threshold, params, vk, proofs, publics, aggregation_params):
    start = time.time()
    with tempfile.TemporaryDirectory(prefix="tms-join-") as d:
        files = {
            "committee.json": committee,
            "params.srs": params,
            "chunk.vk": vk,
            "agg.srs": aggregation_params,
        }
        for i, (proof, public) in enumerate(zip(proofs, publics)):
            files[f"c{i}.bin"] = proof
            files[f"c{i}.json"] = public
        _write(d, files)
        count = len(proofs)
        usage: dict = {}
        out = run_tms(tms, [
            "chunk", "join", "--committee", "committee.json", "--threshold", str(threshold),
            "--params", "params.srs", "--vk", "chunk.vk",
            "--proofs", *[f"c{i}.bin" for i in range(count)],
            "--publics", *[f"c{i}.json" for i in range(count)],
            "--aggregation-params", "agg.srs", "--proof", "join.proof", "--out-vk", "join.vk",
        ], d, usage)
        return {
            "proof": pathlib.Path(d, "join.proof").read_bytes(),
            "vk": pathlib.Path(d, "join.vk").read_bytes(),
            "message": out.strip(),
            "wall_s": time.time() - start,
            **usage,
        }


@dataclasses.dataclass
class Job:
    """One chunked proof: inputs, where to write, and the resources each task asks for."""

    tms: str
    committee: pathlib.Path
    certificate: pathlib.Path
    chunks: int
    threshold: int
    params: pathlib.Path
    aggregation_params: pathlib.Path
    out_dir: pathlib.Path
    slots: Optional[int] = None
    cpus_per_task: float = 1
    memory_gib: float = 8
    join_memory_gib: float = 16
    retries: int = 3
    fault: Fault = dataclasses.field(default_factory=Fault)


def log(message: str) -> None:
    print(f"[tms-ray {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def run(job: Job) -> dict:
    """Proves ``job`` on the connected Ray cluster; returns the report (also written to
    ``out_dir/report.json``). Raises TmsError when tms refuses an input."""
    started = time.time()
    tms = str(pathlib.Path(job.tms).resolve())
    out = job.out_dir.resolve()
    out.mkdir(parents=True, exist_ok=True)
    chunks_dir = out / "chunks"
    log(run_tms(tms, [
        "chunk", "split", "--committee", str(job.committee.resolve()), "--certificate",
        str(job.certificate.resolve()), "--chunks", str(job.chunks), "--out-dir", str(chunks_dir),
    ], str(out)).strip())
    manifest = json.loads((chunks_dir / "manifest.json").read_text())
    entries = manifest["chunks"]
    slots = job.slots or max(1, max(e["threshold"] for e in entries))
    if any(e["threshold"] > slots for e in entries):
        raise TmsError(f"--slots {slots}: a chunk has more signatures than slots")

    gpus = 1 if ray.cluster_resources().get("GPU", 0) > 0 else 0
    task = dict(num_cpus=job.cpus_per_task, memory=int(job.memory_gib * 2**30),
                num_gpus=gpus, max_retries=job.retries)
    params = ray.put(job.params.read_bytes())
    first = (chunks_dir / entries[0]["committee"]).read_bytes()
    keygen = ray.remote(_keygen).options(**task)
    log(f"keygen for chunks of {entries[0]['members']} members, {slots} slots")
    pk, vk = ray.get(keygen.remote(tms, first, slots, params))
    pk_ref = ray.put(pk)

    prove = ray.remote(_prove_chunk).options(**task)
    pending = {}
    for i, e in enumerate(entries):
        ref = prove.remote(
            tms, i, (chunks_dir / e["committee"]).read_bytes(),
            (chunks_dir / e["certificate"]).read_bytes(), e["threshold"], params, pk_ref,
            job.fault,
        )
        pending[ref] = i
    results: list[Optional[dict]] = [None] * len(entries)
    while pending:
        done, _ = ray.wait(list(pending), num_returns=1)
        i = pending.pop(done[0])
        try:
            result = ray.get(done[0])
        except ray.exceptions.RayTaskError as e:
            cause = e.as_instanceof_cause()
            if isinstance(cause, TmsError):
                raise TmsError(f"chunk {i}: {cause}") from None
            raise
        results[i] = result
        log(f"chunk {i} proved ({result['wall_s']:.0f} s, {result['cpu_s']:.0f} CPU-s, "
            f"peak {result['peak_mib']:.0f} MiB); {len(pending)} left")
    proofs = [r["proof"] for r in results]
    if job.fault.corrupt_chunk is not None:
        bad = bytearray(proofs[job.fault.corrupt_chunk])
        bad[len(bad) // 2] ^= 1
        proofs[job.fault.corrupt_chunk] = bytes(bad)
    for i, (proof, r) in enumerate(zip(proofs, results)):
        (chunks_dir / f"chunk-{i}.proof").write_bytes(proof)
        (chunks_dir / f"chunk-{i}.public.json").write_bytes(r["public"])

    join = ray.remote(_join).options(num_cpus=job.cpus_per_task,
                                     memory=int(job.join_memory_gib * 2**30),
                                     max_retries=job.retries)
    log(f"joining {len(proofs)} chunk proofs")
    try:
        joined = ray.get(join.remote(
            tms, job.committee.read_bytes(), job.threshold, params, vk, proofs,
            [r["public"] for r in results], job.aggregation_params.read_bytes(),
        ))
    except ray.exceptions.RayTaskError as e:
        cause = e.as_instanceof_cause()
        if isinstance(cause, TmsError):
            raise TmsError(f"join: {cause}") from None
        raise
    (out / "join.proof").write_bytes(joined["proof"])
    (out / "join.vk").write_bytes(joined["vk"])
    log(joined["message"])

    message = json.loads(job.certificate.read_text())["message"]
    verified = run_tms(tms, [
        "chunk", "verify", "--committee", str(job.committee.resolve()), "--message", message,
        "--threshold", str(job.threshold), "--params", str(job.aggregation_params.resolve()),
        "--vk", "join.vk", "--proof", "join.proof",
    ], str(out)).strip()
    log(verified)
    report = {
        "chunks": [{k: r[k] for k in ("index", "wall_s", "cpu_s", "peak_mib", "node")}
                   for r in results],
        "join": {k: joined[k] for k in ("wall_s", "cpu_s", "peak_mib")},
        "slowest_chunk_wall_s": max(r["wall_s"] for r in results),
        "total_cpu_s": sum(r["cpu_s"] for r in results) + joined["cpu_s"],
        "wall_s": time.time() - started,
        "verified": verified,
    }
    (out / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    return report
