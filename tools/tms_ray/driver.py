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

import ctypes
import dataclasses
import hashlib
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


def _die_with_parent() -> None:
    """In the child before exec (Linux): SIGKILL when the worker that started it dies, so a
    cancelled or lost task leaves no ``tms`` proving on behind it."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def run_tms(tms: str, args: list[str], cwd: str, usage: Optional[dict] = None) -> str:
    """Runs ``tms args`` in ``cwd``; returns stdout, raises TmsError with its error line. With
    ``usage``, adds the run's CPU seconds (``cpu_s``) and peak resident MiB (``peak_mib``)."""
    with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        child = subprocess.Popen([tms, *args], cwd=cwd, stdout=stdout, stderr=stderr,
                                 preexec_fn=_die_with_parent if sys.platform == "linux" else None)
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


def _write(folder: str, files: dict) -> None:
    """Writes ``files`` (name -> bytes, or an object ref of bytes) into ``folder``. Large inputs
    (parameters, the proving key) come as refs nested in the dict, which Ray does not resolve
    before the task starts: each is fetched, written and dropped in turn, so the worker does not
    hold gigabytes beside the ``tms`` it runs."""
    for name, data in files.items():
        if isinstance(data, ray.ObjectRef):
            data = ray.get(data)
        pathlib.Path(folder, name).write_bytes(data)
        del data


@dataclasses.dataclass
class Fault:
    """Test hooks: kill the worker proving ``kill_chunk`` once, mid-proof (``marker`` records
    that it happened), or flip a byte of ``corrupt_chunk``'s proof before the join."""

    kill_chunk: Optional[int] = None
    marker: Optional[str] = None
    corrupt_chunk: Optional[int] = None


def _prove_chunk(tms, index, committee, certificate, threshold, large, fault):
    """Chunk ``index``'s proof; ``large`` holds the refs of ``params.srs`` and ``chunk.pk``."""
    start = time.time()
    with tempfile.TemporaryDirectory(prefix=f"tms-chunk-{index}-") as d:
        _write(d, {"committee.json": committee, "certificate.json": certificate, **large})
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


def _keygen(tms, committee, slots, large):
    """The chunk keys and the keygen's usage, as three returns: the driver fetches the verifying
    key and the usage and passes the proving key's ref on."""
    with tempfile.TemporaryDirectory(prefix="tms-keygen-") as d:
        _write(d, {"committee.json": committee, **large})
        start, usage = time.time(), {}
        run_tms(tms, [
            "keygen", "--committee", "committee.json", "--mode", "merkle", "--slots",
            str(slots), "--params", "params.srs", "--pk", "chunk.pk", "--vk", "chunk.vk",
        ], d, usage)
        usage["wall_s"] = time.time() - start
        return (pathlib.Path(d, "chunk.pk").read_bytes(), pathlib.Path(d, "chunk.vk").read_bytes(),
                usage)


def _join(tms, committee, threshold, large, vk, proofs, publics, part=None, transcript="evm"):
    """One join: the top join (EVM transcript) or, with ``part`` ("g/m"), the lower join of
    subtree g of m (Poseidon transcript, its statement returned for the next level). ``large``
    holds the refs of ``params.srs`` (the inputs') and ``agg.srs`` (the join's parameters)."""
    start = time.time()
    with tempfile.TemporaryDirectory(prefix="tms-join-") as d:
        files = {"committee.json": committee, "inner.vk": vk, **large}
        for i, (proof, public) in enumerate(zip(proofs, publics)):
            files[f"c{i}.bin"] = proof
            files[f"c{i}.json"] = public
        _write(d, files)
        count = len(proofs)
        args = [
            "chunk", "join", "--committee", "committee.json",
            "--params", "params.srs", "--vk", "inner.vk",
            "--proofs", *[f"c{i}.bin" for i in range(count)],
            "--publics", *[f"c{i}.json" for i in range(count)],
            "--aggregation-params", "agg.srs", "--proof", "join.proof", "--out-vk", "join.vk",
            "--transcript", transcript,
        ]
        if threshold is not None:
            args += ["--threshold", str(threshold)]
        if part is not None:
            args += ["--part", part, "--public", "join.json"]
        usage: dict = {}
        out = run_tms(tms, args, d, usage)
        return {
            "part": part,
            "proof": pathlib.Path(d, "join.proof").read_bytes(),
            "vk": pathlib.Path(d, "join.vk").read_bytes(),
            "public": pathlib.Path(d, "join.json").read_bytes() if part else None,
            "message": out.strip(),
            "wall_s": time.time() - start,
            **usage,
        }


def _reason(cause: Exception) -> str:
    """The message of a TmsError raised in a task, without Ray's remote traceback."""
    text = str(cause)
    marker = "TmsError: "
    return text[text.rindex(marker) + len(marker):].strip() if marker in text else text


def _gather(pending: dict, what, on_done) -> list:
    """Waits for every task of ``pending`` (object ref -> index); a ``tms`` refusal stops the
    run naming ``what`` and the index (the level's other tasks are cancelled), a lost task has
    been retried by Ray."""
    results: list = [None] * len(pending)
    while pending:
        done, _ = ray.wait(list(pending), num_returns=1)
        i = pending.pop(done[0])
        try:
            result = ray.get(done[0])
        except ray.exceptions.RayTaskError as e:
            cause = e.as_instanceof_cause()
            # The run stops here: the other tasks of this level would prove for nothing.
            for ref in pending:
                ray.cancel(ref, force=True)
            if isinstance(cause, TmsError):
                raise TmsError(f"{what(i)}: {_reason(cause)}") from None
            raise
        results[i] = result
        on_done(i, result, len(pending))
    return results


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
    # Inputs per join: fewer than ``chunks`` makes a join tree (lower joins of ``fanout``
    # chunks each, then joins of those); a power of two.
    fanout: Optional[int] = None
    # Wrap each chunk proof alone first (a one-input join at the join's k): the joins above then
    # verify wraps of a few columns instead of the chunk circuit's wide bank (less memory).
    wrap: bool = False
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
    if job.fanout is not None and (job.fanout < 2 or job.fanout & (job.fanout - 1)):
        raise TmsError(f"--fanout {job.fanout}: a power of two, at least 2")
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
    keygen = ray.remote(_keygen).options(**task, num_returns=3)
    log(f"keygen for chunks of {entries[0]['members']} members, {slots} slots")
    pk, vk, keygen_usage = keygen.remote(tms, first, slots, {"params.srs": params})
    vk, keygen_usage = ray.get([vk, keygen_usage])
    log(f"keygen done ({keygen_usage['wall_s']:.0f} s, {keygen_usage['cpu_s']:.0f} CPU-s, peak "
        f"{keygen_usage['peak_mib']:.0f} MiB)")
    chunk_files = {"params.srs": params, "chunk.pk": pk}

    prove = ray.remote(_prove_chunk).options(**task)
    pending = {}
    for i, e in enumerate(entries):
        ref = prove.remote(
            tms, i, (chunks_dir / e["committee"]).read_bytes(),
            (chunks_dir / e["certificate"]).read_bytes(), e["threshold"], chunk_files,
            job.fault,
        )
        pending[ref] = i
    results = _gather(pending, lambda i: f"chunk {i}", lambda i, r, left: log(
        f"chunk {i} proved ({r['wall_s']:.0f} s, {r['cpu_s']:.0f} CPU-s, "
        f"peak {r['peak_mib']:.0f} MiB); {left} left"))
    proofs = [r["proof"] for r in results]
    publics = [r["public"] for r in results]
    if job.fault.corrupt_chunk is not None:
        bad = bytearray(proofs[job.fault.corrupt_chunk])
        bad[len(bad) // 2] ^= 1
        proofs[job.fault.corrupt_chunk] = bytes(bad)
    for i, (proof, public) in enumerate(zip(proofs, publics)):
        (chunks_dir / f"chunk-{i}.proof").write_bytes(proof)
        (chunks_dir / f"chunk-{i}.public.json").write_bytes(public)

    join = ray.remote(_join).options(num_cpus=job.cpus_per_task,
                                     memory=int(job.join_memory_gib * 2**30),
                                     max_retries=job.retries)
    committee = ray.put(job.committee.read_bytes())
    aggregation_params = ray.put(job.aggregation_params.read_bytes())
    fanout = job.fanout or len(proofs)
    inner_params, inner_vk = params, vk
    levels = []
    while len(proofs) > fanout or (job.wrap and not levels):
        # The first level of a wrapped run joins each chunk alone.
        size = 1 if job.wrap and not levels else fanout
        groups = len(proofs) // size
        log(f"wraps: {groups} chunk proofs, one each" if size == 1
            else f"lower joins: {groups} joins of {size}")
        pending = {
            join.remote(tms, committee, None,
                        {"params.srs": inner_params, "agg.srs": aggregation_params}, inner_vk,
                        proofs[g * size:(g + 1) * size], publics[g * size:(g + 1) * size],
                        f"{g}/{groups}", "poseidon"): g
            for g in range(groups)
        }
        kind = "wrap" if size == 1 else "join"
        joins = _gather(pending, lambda g, groups=groups, kind=kind: f"{kind} {g}/{groups}",
                        lambda g, r, left: log(f"{r['message']} ({r['cpu_s']:.0f} CPU-s, peak "
                                               f"{r['peak_mib']:.0f} MiB); {left} left"))
        levels.append(joins)
        proofs = [r["proof"] for r in joins]
        publics = [r["public"] for r in joins]
        inner_params, inner_vk = aggregation_params, joins[0]["vk"]
        for g, r in enumerate(joins):
            (out / f"join-{len(levels)}-{g}.proof").write_bytes(r["proof"])
            (out / f"join-{len(levels)}-{g}.public.json").write_bytes(r["public"])
    log(f"joining {len(proofs)} {'lower join' if levels else 'chunk'} proofs")
    [joined] = _gather({join.remote(tms, committee, job.threshold,
                                    {"params.srs": inner_params, "agg.srs": aggregation_params},
                                    inner_vk, proofs, publics): 0},
                       lambda _: "join", lambda *_: None)
    (out / "join.proof").write_bytes(joined["proof"])
    (out / "join.vk").write_bytes(joined["vk"])
    log(joined["message"])

    message = json.loads(job.certificate.read_text())["message"]
    verified = run_tms(tms, [
        "chunk", "verify", "--committee", str(job.committee.resolve()), "--message", message,
        "--threshold", str(job.threshold), "--params", str(job.aggregation_params.resolve()),
        # The operator pins the key its own join made; an outside verifier pins the key it
        # trusts (README: what `tms chunk verify` trusts).
        "--vk", "join.vk", "--vk-fingerprint", hashlib.sha256(joined["vk"]).hexdigest(),
        "--proof", "join.proof",
    ], str(out)).strip()
    log(verified)
    usage = ("wall_s", "cpu_s", "peak_mib")
    slowest_chunk = max(r["wall_s"] for r in results)
    slowest_joins = [max(r["wall_s"] for r in level) for level in levels] + [joined["wall_s"]]
    report = {
        # One-time setup (the chunk keys), apart from the proofs and from total_cpu_s.
        "keygen": keygen_usage,
        "chunks": [{k: r[k] for k in ("index", *usage, "node")} for r in results],
        "lower_joins": [[{"part": r["part"], **{k: r[k] for k in usage}} for r in level]
                        for level in levels],
        "join": {k: joined[k] for k in usage},
        "slowest_chunk_wall_s": slowest_chunk,
        # With a machine per task: the slowest chunk, then the slowest join of each level.
        "model_wall_s_one_machine_per_task": slowest_chunk + sum(slowest_joins),
        "total_cpu_s": sum(r["cpu_s"] for r in results)
        + sum(r["cpu_s"] for level in levels for r in level) + joined["cpu_s"],
        "peak_mib": max(r["peak_mib"] for r in [*results, *sum(levels, []), joined]),
        "wall_s": time.time() - started,
        "verified": verified,
    }
    (out / "report.json").write_text(json.dumps(report, indent=2) + "\n")
    return report
