"""``python -m tools.tms_ray``: prove a Schnorr ATMS certificate in chunks on Ray.

Without ``--address`` it starts a local Ray instance on this machine; ``--address auto`` joins
the cluster this node belongs to (``ray start --head`` on one machine, ``ray start --address
<head>:6379`` on the others; each needs the ``tms`` binary at the same path).
"""

import argparse
import pathlib
import sys

import ray

from .driver import Job, TmsError, run


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.tms_ray", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tms", default="target/release/tms", help="the tms binary")
    p.add_argument("--committee", type=pathlib.Path, required=True, help="committee file")
    p.add_argument("--certificate", type=pathlib.Path, required=True, help="certificate file")
    p.add_argument("--chunks", type=int, required=True, help="chunks: a power of two, >= 2")
    p.add_argument("--threshold", type=int, required=True, help="the threshold t to prove")
    p.add_argument("--params", type=pathlib.Path, required=True,
                   help="KZG parameters of the chunk circuit (`tms setup --halo2 <agg> --k K`)")
    p.add_argument("--aggregation-params", type=pathlib.Path, required=True,
                   help="KZG parameters of the join circuit, same setup")
    p.add_argument("--out-dir", type=pathlib.Path, required=True,
                   help="where the chunks, join.proof, join.vk and report.json go")
    p.add_argument("--slots", type=int, help="signer slots per chunk (default: the most "
                   "signatures in one chunk)")
    p.add_argument("--fanout", type=int, help="inputs per join (a power of two): fewer than "
                   "--chunks joins in a tree (lower joins of FANOUT chunks, then joins of those)")
    p.add_argument("--wrap", action="store_true", help="wrap each chunk proof alone first "
                   "(a one-input join): the joins above verify a few columns, not the chunk "
                   "circuit's wide bank, and need less memory")
    p.add_argument("--address", help="Ray cluster address (default: a local instance)")
    p.add_argument("--workers", type=int, help="local instance only: CPUs Ray may use")
    p.add_argument("--cpus-per-task", type=float, default=1)
    p.add_argument("--memory-gib", type=float, default=8, help="memory request of a chunk task")
    p.add_argument("--join-memory-gib", type=float, default=16, help="memory of the join")
    p.add_argument("--retries", type=int, default=3, help="retries of a lost task")
    a = p.parse_args(argv)
    if a.address:
        ray.init(address=a.address)
    else:
        ray.init(num_cpus=a.workers)
    job = Job(tms=a.tms, committee=a.committee, certificate=a.certificate, chunks=a.chunks,
              threshold=a.threshold, params=a.params, aggregation_params=a.aggregation_params,
              out_dir=a.out_dir, slots=a.slots, fanout=a.fanout, wrap=a.wrap,
              cpus_per_task=a.cpus_per_task,
              memory_gib=a.memory_gib, join_memory_gib=a.join_memory_gib, retries=a.retries)
    try:
        report = run(job)
    except TmsError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"{report['verified']}\nreport: {a.out_dir / 'report.json'} (total {report['total_cpu_s']:.0f} CPU-s, "
          f"{report['wall_s']:.0f} s wall)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
