#!/usr/bin/env python3
"""What the derives cost a user at compile time, against serde's derives alone.

For each N (default 30 and 150) this script generates two model crates in a workspace of
its own (under `--work-dir`, default `target/compile_cost/` of the checkout, never in
git), with N structs of 12 fields each (`String` x4, `u32` x2, `i64`, `f64`, `bool`,
`Option<String>`, `Vec<String>`, `HashMap<String, i64>`):

- `dynamap_N`: `#[derive(Entity)]` on each struct, pk and sk templates of two parts and
  two GSIs, and one `#[derive(Table)]` layout declaring the GSIs;
- `serde_N`: the same structs with only `#[derive(serde::Serialize, serde::Deserialize)]`,
  what a user of serde_dynamo pays.

Both crates depend on this checkout's `dynamap` (by path, default features) and `serde`,
so the dependencies are the same and built once, before any measurement. It measures, in
paired runs that alternate which crate goes first:

(a) the incremental rebuild after an edit of the model file (a comment appended to
    `src/lib.rs`, then `cargo build -p <crate> --lib`);
(b) the cold `cargo check -p <crate> --lib` of the model crate alone after
    `cargo clean -p <crate>` (dependencies stay built);
(c) the size of the expanded model crate (`cargo rustc -- -Zunpretty=expanded`, every
    cargo command running with `RUSTC_BOOTSTRAP=1`), per entity, and its excess over the serde-only crate.

Wall time is the cargo command's; peak memory is `/usr/bin/time -v`'s "Maximum resident
set size" of the cargo process: on Linux that is the largest RSS of any single process
among cargo and its waited-for children, which is rustc compiling the model crate, not
a sum over the process tree.

Results: a table on stdout, `docs/performance/compile.json` and `compile.md` (medians,
min/max, dynamap/serde ratios, the machine, its load average, the commit, the command).

    python3 benches/compile_cost/run.py                   # N = 30 and 150, 5 pairs
    python3 benches/compile_cost/run.py --sizes 30 --runs 3
    python3 benches/compile_cost/run.py --quick           # N = 10, 1 pair, smoke check

`--quick` writes its results under the work directory instead of `docs/performance/`.
Python 3.11 standard library only; needs cargo, rustc and GNU time (`/usr/bin/time`).
"""

import argparse
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DYNAMAP = REPO / "dynamap"

ENTITY_FIELDS = """    pub tenant: String,
    pub id: String,
    pub region: String,
    pub name: String,
    pub seq: u32,
    pub count: u32,
    pub delta: i64,
    pub score: f64,
    pub active: bool,
    pub note: Option<String>,
    pub tags: Vec<String>,
    pub totals: HashMap<String, i64>,
"""

DYNAMAP_ATTRS = """#[derive(Entity)]
#[dynamap(
    table = Bench,
    entity = "E@I@",
    pk = "E@I@#{tenant}#{id}",
    sk = "R#{region}#{seq}",
    index(name = "GSI1", pk = "E@I@#{region}#{name}", sk = "T#{tenant}#{seq}"),
    index(name = "GSI2", pk = "E@I@#{name}#{tenant}", sk = "I#{id}#{count}")
)]
"""

DYNAMAP_HEADER = """use std::collections::HashMap;

use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"),
    index(name = "GSI2", pk = "GSI2PK", sk = "GSI2SK")
)]
pub struct Bench;
"""

SERDE_HEADER = "use std::collections::HashMap;\n"
SERDE_ATTRS = "#[derive(serde::Serialize, serde::Deserialize)]\n"
KINDS = ("dynamap", "serde")


def parse_args():
    """The sizes, pairs, work directory and output directory."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[30, 150])
    parser.add_argument("--runs", type=int, default=5, help="pairs of runs per measure")
    parser.add_argument("--quick", action="store_true", help="N = 10, one pair")
    parser.add_argument("--work-dir", type=Path, default=REPO / "target" / "compile_cost")
    parser.add_argument("--out", type=Path, help="default docs/performance/")
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.runs = [10], 1
    if args.out is None:
        args.out = args.work_dir / "results" if args.quick else REPO / "docs" / "performance"
    return args


def model_source(kind, n):
    """The model file of `n` entities, with dynamap's derives or serde's."""
    header, attrs = (DYNAMAP_HEADER, DYNAMAP_ATTRS) if kind == "dynamap" else (SERDE_HEADER, SERDE_ATTRS)
    parts = [header]
    for i in range(n):
        parts.append(f"\n{attrs.replace('@I@', str(i))}pub struct Entity{i} {{\n{ENTITY_FIELDS}}}\n")
    return "".join(parts)


def write_workspace(work, sizes):
    """A workspace of its own with both crates per size; the checkout's lock file pins
    the dependencies' versions to the ones the repository builds with."""
    members = [f"{kind}_{n}" for n in sizes for kind in KINDS]
    ws = work / "ws"
    ws.mkdir(parents=True, exist_ok=True)
    (ws / "Cargo.toml").write_text(
        "[workspace]\nresolver = \"3\"\nmembers = [" + ", ".join(f'"{m}"' for m in members) + "]\n"
    )
    if not (ws / "Cargo.lock").exists():
        shutil.copy(REPO / "Cargo.lock", ws / "Cargo.lock")
    for n in sizes:
        for kind in KINDS:
            crate = ws / f"{kind}_{n}"
            (crate / "src").mkdir(parents=True, exist_ok=True)
            (crate / "Cargo.toml").write_text(
                f'[package]\nname = "{kind}_{n}"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n'
                f'[dependencies]\ndynamap = {{ path = "{DYNAMAP}" }}\n'
                'serde = { version = "1", features = ["derive"] }\n'
            )
            (crate / "src" / "lib.rs").write_text(model_source(kind, n))
    return ws


def cargo_env(work):
    """Cargo's environment: the work directory's own target, no outside RUSTFLAGS, and
    RUSTC_BOOTSTRAP for every command: cargo fingerprints it, so setting it only for the
    expansion (c) would rebuild every dependency there and again at the next run. It
    lets rustc accept `-Z` flags and changes nothing else."""
    env = dict(os.environ, CARGO_TARGET_DIR=str(work / "target"), RUSTC_BOOTSTRAP="1")
    env.pop("RUSTFLAGS", None)
    return env


def run_timed(args, ws, env):
    """Wall seconds and peak RSS (MiB) of one cargo command under GNU time."""
    cmd = ["/usr/bin/time", "-v", "cargo", *args]
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=ws, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"failed: {shlex.join(cmd)}\n{done.stderr}")
    rss_kb = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr).group(1))
    return wall, rss_kb / 1024


def run_quiet(args, ws, env):
    """What a cargo command prints on stdout; stops the script if it fails."""
    done = subprocess.run(["cargo", *args], cwd=ws, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"failed: cargo {shlex.join(args)}\n{done.stderr}")
    return done.stdout


def edit_model(ws, crate, i):
    """Appends a comment to the model file: an edit cargo and rustc must rebuild."""
    with open(ws / crate / "src" / "lib.rs", "a") as file:
        file.write(f"// edit {i}\n")


def incremental(ws, env, crate, i):
    """(a): the rebuild of the lib after an edit of its model file."""
    edit_model(ws, crate, i)
    return run_timed(["build", "-q", "-p", crate, "--lib"], ws, env)


def cold_check(ws, env, crate, i):
    """(b): `cargo check` of the model crate alone, its own artifacts removed first."""
    run_quiet(["clean", "-q", "-p", crate], ws, env)
    return run_timed(["check", "-q", "-p", crate, "--lib"], ws, env)


def paired(measure, ws, env, n, runs):
    """`runs` pairs of the measure on both crates, alternating which goes first."""
    samples = {kind: [] for kind in KINDS}
    for i in range(runs):
        order = KINDS if i % 2 == 0 else KINDS[::-1]
        for kind in order:
            samples[kind].append(measure(ws, env, f"{kind}_{n}", i))
    return samples


def summary(values):
    """Median, extremes and the runs themselves."""
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "runs": values}


def summarize(samples):
    """Medians, extremes and the dynamap/serde ratio of wall time and peak RSS."""
    out = {}
    for index, metric in enumerate(("wall_s", "peak_rss_mib")):
        per_kind = {kind: summary([round(s[index], 3) for s in samples[kind]]) for kind in KINDS}
        per_kind["ratio"] = round(per_kind["dynamap"]["median"] / per_kind["serde"]["median"], 2)
        out[metric] = per_kind
    return out


def expansion(ws, env, n):
    """Lines and bytes of each expanded crate, per entity, and dynamap's excess."""
    sizes = {}
    for kind in KINDS:
        text = run_quiet(["rustc", "-q", "-p", f"{kind}_{n}", "--lib", "--", "-Zunpretty=expanded"], ws, env)
        sizes[kind] = {"lines": text.count("\n"), "bytes": len(text.encode())}
    per_entity = {
        kind: {unit: round(sizes[kind][unit] / n) for unit in ("lines", "bytes")} for kind in KINDS
    }
    excess = {unit: round((sizes["dynamap"][unit] - sizes["serde"][unit]) / n) for unit in ("lines", "bytes")}
    return {"total": sizes, "per_entity": per_entity, "dynamap_minus_serde_per_entity": excess}


def warm_up(ws, env, sizes):
    """Builds the dependencies (in build and check mode) before anything is timed."""
    for n in sizes:
        for kind in KINDS:
            run_quiet(["build", "-q", "-p", f"{kind}_{n}", "--lib"], ws, env)
            run_quiet(["check", "-q", "-p", f"{kind}_{n}", "--lib"], ws, env)


def machine():
    """What the numbers were taken on."""
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    mem_kb = int(re.search(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text()).group(1))
    return {"cpu": cpu, "cores": os.cpu_count(), "memory_gib": round(mem_kb / 2**20, 1),
            "os": platform.platform(), "rustc": output("rustc", "-V"), "cargo": output("cargo", "-V")}


def output(*cmd, cwd=None):
    """What a command prints, stripped."""
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True).stdout.strip()


def commit():
    """The checkout's commit, marked when tracked files differ from it."""
    dirty = output("git", "status", "--porcelain", "--untracked-files=no", cwd=REPO)
    return output("git", "rev-parse", "--short", "HEAD", cwd=REPO) + ("-dirty" if dirty else "")


def time_size(ws, env, n, runs):
    """The timed measures of one size, with the load average around them."""
    load_before = os.getloadavg()
    result = {
        "incremental_build": summarize(paired(incremental, ws, env, n, runs)),
        "cold_check": summarize(paired(cold_check, ws, env, n, runs)),
    }
    result["load_average_1m"] = {"before": round(load_before[0], 2), "after": round(os.getloadavg()[0], 2)}
    return result


def table_rows(results):
    """The markdown table of the timed measures."""
    rows = ["| N | measure | dynamap median (min-max) | serde median (min-max) | ratio |", "|---|---|---|---|---|"]
    for n, result in results.items():
        for measure in ("incremental_build", "cold_check"):
            for metric, unit in (("wall_s", "s"), ("peak_rss_mib", "MiB")):
                cell = result[measure][metric]
                fmt = lambda s: f"{s['median']:.2f} {unit} ({s['min']:.2f}-{s['max']:.2f})"
                rows.append(f"| {n} | {measure} {metric} | {fmt(cell['dynamap'])} | {fmt(cell['serde'])} "
                            f"| {cell['ratio']:.2f}x |")
    return rows


def expansion_rows(results):
    """The markdown table of the expanded sizes."""
    rows = ["| N | dynamap lines/bytes per entity | serde lines/bytes per entity | dynamap - serde per entity |",
            "|---|---|---|---|"]
    for n, result in results.items():
        e = result["expansion"]
        cell = lambda d: f"{d['lines']} / {d['bytes']}"
        rows.append(f"| {n} | {cell(e['per_entity']['dynamap'])} | {cell(e['per_entity']['serde'])} "
                    f"| {cell(e['dynamap_minus_serde_per_entity'])} |")
    return rows


def write_results(out, report):
    """compile.json (everything) and compile.md (the tables and how they were taken)."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "compile.json").write_text(json.dumps(report, indent=2) + "\n")
    results = report["results"]
    loads = ", ".join(f"N = {n}: {r['load_average_1m']['before']} -> {r['load_average_1m']['after']}"
                      for n, r in results.items())
    m = report["machine"]
    text = [
        "# Compile cost of the derives", "",
        "Generated by `benches/compile_cost/run.py` (its header says what it measures); "
        "do not edit by hand. Command:", "", "```sh", report["command"], "```", "",
        f"Commit `{report['commit']}`, {report['pairs']} paired runs per measure, alternating "
        "which crate goes first. Machine: "
        f"{m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, {m['os']}, {m['rustc']}. "
        f"Load average (1 min) before -> after each size: {loads}. A load above the core count "
        "means other builds shared the machine: wall times are then longer than on an idle one "
        "and the ratios less exact (alternating the pairs spreads the load over both crates); "
        "peak RSS does not depend on it.", "",
        "`dynamap_N` holds N structs of 12 fields with `#[derive(Entity)]` (two-part pk and sk "
        "templates, two GSIs) and one `#[derive(Table)]`; `serde_N` the same structs with only "
        "serde's `Serialize`/`Deserialize` derives. *incremental_build*: `cargo build` of the lib "
        "after a comment is appended to the model file. *cold_check*: `cargo check` of the model "
        "crate after `cargo clean -p` of it (dependencies built). Wall time in seconds; peak RSS is "
        "GNU time's maximum resident set size, that of the largest single process (rustc), "
        "not the sum over cargo's process tree.", "",
        *table_rows(results), "",
        "Expanded size (`-Zunpretty=expanded`, rustc's pretty printing), per entity; the "
        "dynamap crate's figure includes its one `Table` derive and imports, spread over N:", "",
        *expansion_rows(results), "",
    ]
    (out / "compile.md").write_text("\n".join(text))


def main():
    args = parse_args()
    work = args.work_dir.resolve()
    ws = write_workspace(work, args.sizes)
    env = cargo_env(work)
    print(f"building dependencies in {work / 'target'} ...", flush=True)
    warm_up(ws, env, args.sizes)
    results = {}
    for n in args.sizes:
        print(f"measuring N = {n} ...", flush=True)
        results[str(n)] = time_size(ws, env, n, args.runs)
    for n in args.sizes:
        results[str(n)]["expansion"] = expansion(ws, env, n)
    report = {"command": shlex.join(["python3", "benches/compile_cost/run.py", *sys.argv[1:]]),
              "commit": commit(), "machine": machine(), "pairs": args.runs, "results": results}
    print("\n".join(table_rows(results) + [""] + expansion_rows(results)))
    write_results(args.out, report)
    print(f"wrote {args.out / 'compile.json'} and {args.out / 'compile.md'}")


if __name__ == "__main__":
    main()
