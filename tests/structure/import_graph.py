#!/usr/bin/env python3
"""Draws the module import graph of every crate of the workspace and fails on a circle.

A module's dependencies are the `crate::`, `super::` and `self::` paths its code names (in `use`
trees and inline), comments and string literals removed. A name that a module re-exports
(`pub use child::Name`) is followed to the module that defines it, and the re-export itself is
not a dependency: a parent that declares and re-exports its children does not depend on them.
Two graphs are checked per crate: modules, and top-level modules (folders collapsed).

    python3 tests/structure/import_graph.py           # check, one summary line per crate
    python3 tests/structure/import_graph.py --print   # also print every edge
"""
import os
import re
import sys

ROOT = os.environ.get("TMS_ROOT") or os.path.normpath(
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CRATES = ["src", "gadgets/src", "circuits/schnorr-atms/src", "circuits/bls-atms/src",
          "circuits/mithril/src", "benches/stark-baseline/src", "benches/report/src", "benches/naive-baselines/src",
          "evm/src", "aggregation/src", "cardano/src", "circuits/atms-core/src",
          "circuits/schnorr-atms-jubjub/src", "circuits/mithril-core/src",
          "circuits/mithril-jubjub/src"]

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


# One left-to-right scan, so that what starts a token is decided in order: a string ending in
# `r` (`"header"`) must not open a raw string that swallows the code up to the next quote.
TOKENS = re.compile(
    r"//[^\n]*"                                  # line comment
    r"|/\*.*?\*/"                                # block comment
    r'|(?<![A-Za-z0-9_])b?r(#*)"(?:.|\n)*?"\1'   # raw string
    r'|b?"(?:\\.|[^"\\])*"'                      # string
    r"|b?'(?:\\.|[^'\\])'",                      # char literal (not a lifetime: it closes)
    flags=re.S,
)


def strip(code):
    """Code without comments, string and char literals (their contents could name paths)."""
    return TOKENS.sub(lambda m: " " if m.group(0).startswith("/") else '""', code)


def flatten_inline_modules(code):
    """Inside an inline `mod name { ... }` (a test module), `super::` is the file's own module."""
    out, i = [], 0
    for m in re.finditer(r"\bmod\s+" + IDENT + r"\s*\{", code):
        if m.start() < i:
            continue
        depth, j = 1, m.end()
        while j < len(code) and depth:
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            j += 1
        out.append(code[i:m.end()])
        out.append(code[m.end():j].replace("super::", "self::"))
        i = j
    out.append(code[i:])
    return "".join(out)


def modules(src):
    """Module path (tuple) -> file, for every .rs file under src."""
    out = {}
    for dirpath, _, files in os.walk(src):
        for f in files:
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), src)[:-3].split(os.sep)
            if rel in (["lib"], ["main"]):
                path = ()
            elif rel[-1] == "mod":
                path = tuple(rel[:-1])
            else:
                path = tuple(rel)
            if path and path[0] == "bin":
                continue
            out[path] = os.path.join(dirpath, f)
    return out


def expand(tree):
    """The full paths of a use tree such as `a::{b, c::{d, e as f}, self}`."""
    tree = re.sub(r"\s+as\s+", "@", tree)
    tree = re.sub(r"\s+", "", tree)
    out = []

    def walk(prefix, t):
        depth, start, parts = 0, 0, []
        for i, ch in enumerate(t):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                parts.append(t[start:i])
                start = i + 1
        parts.append(t[start:])
        for part in filter(None, parts):
            m = re.match(r"^(.*?)::\{(.*)\}$", part, flags=re.S)
            if m:
                walk(prefix + m.group(1).split("::"), m.group(2))
            elif part.startswith("{") and part.endswith("}"):
                walk(prefix, part[1:-1])
            else:
                name = part.split("@")[0]
                segs = [s for s in name.split("::") if s]
                segs = [s for s in segs if s != "self"]
                out.append(prefix + segs)

    walk([], tree)
    return out


def absolute(path, here):
    """An absolute module path for `crate::`, `super::`, `self::` paths; None otherwise."""
    if not path:
        return None
    if path[0] == "crate":
        return list(path[1:])
    if path[0] in ("super", "self"):
        base = list(here)
        rest = list(path)
        while rest and rest[0] in ("super", "self"):
            if rest.pop(0) == "super":
                base = base[:-1]
        return base + rest
    return None


def analyse(src):
    mods = modules(src)
    code = {m: flatten_inline_modules(strip(open(f).read())) for m, f in mods.items()}
    # Re-exports: (module, name) -> absolute path of what it names.
    reexports = {}
    uses = {}
    for m, c in code.items():
        uses[m] = []
        for vis, tree in re.findall(r"(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", c):
            for p in expand(tree):
                if not p:
                    continue
                target = absolute(p, m)
                if target is None and (m + (p[0],)) in mods:
                    target = list(m) + p  # `use child::X`, relative to this module
                if target is None:
                    continue
                if vis:
                    reexports[(m, p[-1])] = target
                else:
                    uses[m].append(target)
        for inline in re.findall(r"\b((?:crate|super|self)(?:::" + IDENT + r")+)", c):
            target = absolute(inline.split("::"), m)
            if target is not None:
                uses[m].append(target)

    def resolve(path, seen=0):
        """The module that defines what `path` names."""
        path = list(path)
        best = ()
        for i in range(len(path), 0, -1):
            if tuple(path[:i]) in mods:
                best = tuple(path[:i])
                rest = path[i:]
                break
        else:
            rest = path
        if rest and (best, rest[0]) in reexports and seen < 16:
            return resolve(reexports[(best, rest[0])] + rest[1:], seen + 1)
        return best

    edges = set()
    for m, targets in uses.items():
        for t in targets:
            d = resolve(t)
            if d != m and d in mods:
                edges.add((m, d))
    return mods, edges


def cycle(nodes, edges):
    graph = {n: sorted({d for s, d in edges if s == n}) for n in nodes}
    state, stack = {}, []

    def dfs(n):
        state[n] = 1
        stack.append(n)
        for d in graph.get(n, []):
            if state.get(d) == 1:
                return stack[stack.index(d):] + [d]
            if d not in state:
                found = dfs(d)
                if found:
                    return found
        state[n] = 2
        stack.pop()
        return None

    for n in sorted(nodes):
        if n not in state:
            found = dfs(n)
            if found:
                return found
    return None


def name(m):
    return "::".join(("crate",) + m)


def self_test():
    """The checker finds a circle it is shown, through `use crate::`, `super::` and a re-export,
    and accepts the same tree without it (so a green run is not a checker that sees nothing)."""
    import tempfile

    def tree(files):
        root = tempfile.mkdtemp()
        for name, text in files.items():
            path = os.path.join(root, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        return root

    base = {
        "lib.rs": "pub mod bank;\npub mod gate;\npub use gate::Gate;\n",
        "bank.rs": "// crate::gate is named in a comment only\npub struct Bank;\n",
        "gate/mod.rs": "pub mod round;\npub use round::Gate;\n",
        "gate/round.rs": "use crate::bank::Bank;\npub struct Gate(Bank);\n",
    }
    mods, edges = analyse(tree(base))
    assert cycle(set(mods), edges) is None, edges
    for bad in (
        "use crate::gate::round::Gate;\npub struct Bank;\n",
        "use crate::Gate;\npub struct Bank;\n",
        "pub fn f() -> crate::gate::Gate { todo!() }\npub struct Bank;\n",
        # A path after a string that ends in `r` (once mistaken for a raw string's start).
        'fn h() -> &\'static str { "header" }\n'
        "pub struct Bank(Option<crate::gate::Gate>);\nfn j() -> char { '\"' }\n",
    ):
        mods, edges = analyse(tree({**base, "bank.rs": bad}))
        found = cycle(set(mods), edges)
        assert found and ("bank",) in found, (bad, edges)
    print("self-test: circles through use, re-exports and inline paths (after strings) are found")


def main():
    if "--self-test" in sys.argv:
        self_test()
        return
    show = "--print" in sys.argv
    failed = False
    for crate in CRATES:
        src = os.path.join(ROOT, crate)
        if not os.path.isdir(src):
            continue
        mods, edges = analyse(src)
        top_edges = {(s[:1], d[:1]) for s, d in edges if s[:1] != d[:1]}
        top_nodes = {m[:1] for m in mods}
        for label, nodes, es in (("modules", set(mods), edges), ("top-level", top_nodes, top_edges)):
            c = cycle(nodes, es)
            if c:
                failed = True
                print(f"{crate}: import circle among {label}: " + " -> ".join(map(name, c)))
        if show:
            for s, d in sorted(edges):
                print(f"  {crate}: {name(s)} -> {name(d)}")
        if not cycle(set(mods), edges) and not cycle(top_nodes, top_edges):
            print(f"{crate}: {len(mods)} modules, {len(edges)} imports, no circle")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
