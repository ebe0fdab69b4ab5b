#!/usr/bin/env python3
"""What each derive attribute adds to a model crate's compile cost.

`run.py` compares the issue's full model (two-part keys, two GSIs) with serde's derives;
this script splits that cost by attribute. It generates one crate per variant, each with N
structs of `run.py`'s 12 fields (default N = 30), in a workspace of its own
(`ws_attributes/` under `--work-dir`, default `target/compile_cost/`, beside `run.py`'s, so the dependencies are built once for both):

- `serde`: serde's `Serialize`/`Deserialize` only, the baseline;
- `plain`: `#[derive(Entity)]` with two-part pk and sk templates, nothing else;
- `gsis`: plain + the two GSIs of `run.py`'s model (that model itself);
- `lookup`: gsis + one `lookup(...)` item per entity;
- `encrypt`: gsis + one `encrypt` and one `sign_only` field;
- `compress`: gsis + one `compress` field (zstd, the default codec);
- `schema_version`: gsis + `schema_version = 2` with one `upgrade(from = 1, with = ...)`;
- `version_ttl`: gsis + a `version` field and a `ttl` field.

For each crate it measures, in paired runs that alternate with `serde`, the cold
`cargo check` of the model crate (CPU time, which the machine's other work changes far
less than wall time, and rustc's peak RSS), and
once each: the expanded lines per entity (`-Zunpretty=expanded`) and the LLVM IR lines per
entity of a debug build (`--emit=llvm-ir`: what codegen works through, which does not
depend on the machine's load).

    python3 benches/compile_cost/attributes.py              # N = 30, 3 pairs
    python3 benches/compile_cost/attributes.py --runs 1     # a quicker look

Results: a table on stdout, `docs/performance/compile-attributes.json` and `.md`.
"""

import argparse
import collections
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402  (the shared measures and the model's fields)

GSIS = """    index(name = "GSI1", pk = "E@I@#{region}#{name}", sk = "T#{tenant}#{seq}"),
    index(name = "GSI2", pk = "E@I@#{name}#{tenant}", sk = "I#{id}#{count}"),
"""
LOOKUP = '    lookup(name = "by_name", pk = "NAME@I@#{name}", sk = "N"),\n'
SCHEMA = '    schema_version = 2, upgrade(from = 1, with = "upgrade_@I@"),\n'

# Variant: (entity attributes beyond pk/sk, field-level attributes by field name, extra fields).
VARIANTS = {
    "plain": ("", {}, ""),
    "gsis": (GSIS, {}, ""),
    "lookup": (GSIS + LOOKUP, {}, ""),
    "encrypt": (GSIS, {"note": "encrypt", "delta": "sign_only"}, ""),
    "compress": (GSIS, {"tags": "compress"}, ""),
    "schema_version": (GSIS + SCHEMA, {}, ""),
    "version_ttl": (GSIS, {}, "    #[dynamap(version)]\n    pub v: u64,\n    #[dynamap(ttl)]\n    pub expires: Option<time::OffsetDateTime>,\n"),
}

HEADER = """#![allow(dead_code)]
use std::collections::HashMap;

use dynamap::{Entity, Table};

#[derive(Table)]
#[dynamap(
    pk = "PK",
    sk = "SK",
    ttl = "expires",
    index(name = "GSI1", pk = "GSI1PK", sk = "GSI1SK"),
    index(name = "GSI2", pk = "GSI2PK", sk = "GSI2SK")
)]
pub struct Bench;
"""


def entity_source(variant, i):
    """One entity of a variant: its attributes, fields and, for schema versions, its upgrade."""
    extra_attrs, field_attrs, extra_fields = VARIANTS[variant]
    fields = []
    for line in run.ENTITY_FIELDS.splitlines(keepends=True):
        name = line.strip().removeprefix("pub ").split(":")[0]
        if name in field_attrs:
            fields.append(f"    #[dynamap({field_attrs[name]})]\n")
        fields.append(line)
    attrs = (
        '#[derive(Entity)]\n#[dynamap(\n    table = Bench,\n    entity = "E@I@",\n'
        '    pk = "E@I@#{tenant}#{id}",\n    sk = "R#{region}#{seq}",\n' + extra_attrs + ")]\n"
    ).replace("@I@", str(i))
    text = f"\n{attrs}pub struct Entity{i} {{\n{''.join(fields)}{extra_fields}}}\n"
    if "upgrade" in extra_attrs:
        text += (
            f"\nfn upgrade_{i}(_item: dynamap::codec::Item) -> Result<Entity{i}, dynamap::codec::AttributeError> {{\n"
            '    Err(dynamap::codec::AttributeError::new("no version 1 items"))\n}\n'
        )
    return text


def crate_source(variant, n):
    """The model file of a variant's crate."""
    if variant == "serde":
        return run.model_source("serde", n)
    return HEADER + "".join(entity_source(variant, i) for i in range(n))


def crate_name(variant):
    """The package of a variant (`serde` alone would clash with the serde crate)."""
    return f"attr_{variant}"


def write_workspace(work, n):
    """The workspace: one crate per variant, `serde` first."""
    names = ["serde", *VARIANTS]
    ws = work / "ws_attributes"
    ws.mkdir(parents=True, exist_ok=True)
    (ws / "Cargo.toml").write_text(
        "[workspace]\nresolver = \"3\"\nmembers = [" + ", ".join(f'"{crate_name(v)}"' for v in names) + "]\n"
    )
    if not (ws / "Cargo.lock").exists():
        shutil.copy(run.REPO / "Cargo.lock", ws / "Cargo.lock")
    for variant in names:
        crate = ws / crate_name(variant)
        (crate / "src").mkdir(parents=True, exist_ok=True)
        (crate / "Cargo.toml").write_text(
            f'[package]\nname = "{crate_name(variant)}"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n'
            f'[dependencies]\ndynamap = {{ path = "{run.DYNAMAP}" }}\n'
            'serde = { version = "1", features = ["derive"] }\ntime = "0.3"\n'
        )
        (crate / "src" / "lib.rs").write_text(crate_source(variant, n))
    return ws, names


def cold_check_cpu(ws, env, crate):
    """`run.py`'s cold check, timed in CPU seconds (user + system of cargo and rustc), which
    other processes on the machine change far less than wall time; and rustc's peak RSS."""
    run.run_quiet(["clean", "-q", "-p", crate], ws, env)
    cmd = ["/usr/bin/time", "-v", "cargo", "check", "-q", "-p", crate, "--lib"]
    done = subprocess.run(cmd, cwd=ws, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"failed: {shlex.join(cmd)}\n{done.stderr}")
    field = lambda name: float(re.search(rf"{name}: ([\d.]+)", done.stderr).group(1))
    cpu = field(r"User time \(seconds\)") + field(r"System time \(seconds\)")
    return cpu, field(r"Maximum resident set size \(kbytes\)") / 1024


def llvm_lines(ws, env, crate, work):
    """Lines of the crate's LLVM IR in a debug build."""
    out = work / "llvm" / f"{crate}.ll"
    out.parent.mkdir(parents=True, exist_ok=True)
    run.run_quiet(["rustc", "-q", "-p", crate, "--lib", "--", "--emit=llvm-ir", "-o", str(out)], ws, env)
    # rustc may split the IR per codegen unit next to the requested name.
    files = sorted(out.parent.glob(f"{crate}*.ll"))
    lines = sum(f.read_text().count("\n") for f in files)
    for f in files:
        f.unlink()
    return lines


def expanded_lines(ws, env, crate):
    """Lines of the crate after macro expansion."""
    return run.run_quiet(["rustc", "-q", "-p", crate, "--lib", "--", "-Zunpretty=expanded"], ws, env).count("\n")


def measure(ws, env, work, names, n, runs):
    """Cold checks paired with serde's, then the sizes, for every variant."""
    results = {}
    for variant in names:
        if variant == "serde":
            continue
        samples = {variant: [], "serde": []}
        for i in range(runs):
            for kind in ((variant, "serde") if i % 2 == 0 else ("serde", variant)):
                samples[kind].append(cold_check_cpu(ws, env, crate_name(kind)))
        results[variant] = {
            "cold_check_cpu_s": round(statistics.median(s[0] for s in samples[variant]), 2),
            "serde_cold_check_cpu_s": round(statistics.median(s[0] for s in samples["serde"]), 2),
            "peak_rss_mib": round(statistics.median(s[1] for s in samples[variant]), 1),
            "serde_peak_rss_mib": round(statistics.median(s[1] for s in samples["serde"]), 1),
        }
        print(f"  {variant}: {results[variant]}", flush=True)
    for variant in names:
        crate = crate_name(variant)
        sizes = {"expanded_lines_per_entity": round(expanded_lines(ws, env, crate) / n),
                 "llvm_lines_per_entity": round(llvm_lines(ws, env, crate, work) / n)}
        results.setdefault(variant, {}).update(sizes)
    return results


def breakdown(ws, env, variant, n):
    """LLVM IR lines of the variant's crate by generated function, summed over the entities
    (`EntityN` made one name), with `cargo llvm-lines` (`cargo install cargo-llvm-lines`);
    None where it is not installed."""
    if shutil.which("cargo-llvm-lines") is None:
        return None
    text = run.run_quiet(["llvm-lines", "-p", crate_name(variant), "--lib"], ws, env)
    lines = collections.Counter()
    for row in text.splitlines():
        m = re.match(r"\s*(\d+) \([^)]*\)\s+\d+ \([^)]*\)\s+(.*)", row)
        if not m or m.group(2) == "(TOTAL)":
            continue
        name = re.sub(r"\[[0-9a-f]+\]", "", m.group(2))
        name = re.sub(r"Entity\d+", "EntityN", name).replace(f"{crate_name(variant)}::", "")
        # A generic function's copies for one entity's closures count with that function.
        name = re.sub(r"::\{closure#\d+\}", "", name)
        lines[name] += int(m.group(1))
    total = sum(lines.values())
    return {"total_per_entity": round(total / n),
            "top": [{"function": f, "per_entity": round(v / n), "share": round(v / total, 3)}
                    for f, v in lines.most_common(12)]}


def breakdown_rows(found):
    """The markdown table of where the LLVM IR lines go."""
    out = ["| generated function (summed over entities) | LLVM IR lines / entity | share |", "|---|---|---|"]
    for row in found["top"]:
        out.append(f"| `{row['function'][:110]}` | {row['per_entity']} | {row['share']:.1%} |")
    return out


def rows(results, before=None):
    """The markdown table: each variant against serde; with `before` (the results of an
    earlier run), each cell as `before -> now`."""
    def cells(r):
        if "cold_check_cpu_s" not in r:
            return ("1.00x", "1.00x", str(r["expanded_lines_per_entity"]), str(r["llvm_lines_per_entity"]))
        time_ratio = r["cold_check_cpu_s"] / r["serde_cold_check_cpu_s"]
        rss_ratio = r["peak_rss_mib"] / r["serde_peak_rss_mib"]
        return (f"{time_ratio:.2f}x", f"{rss_ratio:.2f}x ({r['peak_rss_mib']:.0f} MiB)",
                str(r["expanded_lines_per_entity"]), str(r["llvm_lines_per_entity"]))
    out = ["| variant | cold check CPU time vs serde | peak RSS vs serde | expanded lines / entity | LLVM IR file lines / entity |",
           "|---|---|---|---|---|"]
    for variant in ["serde", *[v for v in results if v != "serde"]]:
        now = cells(results[variant])
        if before and variant in before:
            now = [f"{b} -> {n}" for b, n in zip(cells(before[variant]), now)]
        out.append(f"| {variant} | " + " | ".join(now) + " |")
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entities", type=int, default=30)
    parser.add_argument("--runs", type=int, default=3, help="pairs of cold checks per variant")
    parser.add_argument("--work-dir", type=Path, default=run.REPO / "target" / "compile_cost")
    parser.add_argument("--out", type=Path, default=run.REPO / "docs" / "performance")
    parser.add_argument("--before", type=Path,
                        default=run.REPO / "docs" / "performance" / "compile-attributes-before.json",
                        help="an earlier run's JSON, shown as `before -> now` (skipped when missing)")
    parser.add_argument("--render", type=Path, metavar="JSON",
                        help="measure nothing: write the markdown of a saved run's JSON")
    args = parser.parse_args()
    before = json.loads(args.before.read_text()) if args.before.exists() else None
    if args.render:
        report = json.loads(args.render.read_text())
        write_markdown(args.out, report, before, args.before)
        return
    work = args.work_dir.resolve()
    ws, names = write_workspace(work, args.entities)
    env = run.cargo_env(work)
    print(f"building dependencies in {work / 'target'} ...", flush=True)
    for variant in names:
        run.run_quiet(["check", "-q", "-p", crate_name(variant), "--lib"], ws, env)
    load_before = os.getloadavg()[0]
    results = measure(ws, env, work, names, args.entities, args.runs)
    found = breakdown(ws, env, "gsis", args.entities)
    report = {
        "command": shlex.join(["python3", "benches/compile_cost/attributes.py", *sys.argv[1:]]),
        "commit": run.commit(), "machine": run.machine(), "entities": args.entities, "pairs": args.runs,
        "load_average_1m": {"before": round(load_before, 2), "after": round(os.getloadavg()[0], 2)},
        "results": results, "gsis_llvm_lines_by_function": found,
    }
    print("\n".join(rows(results, before and before["results"])))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "compile-attributes.json").write_text(json.dumps(report, indent=2) + "\n")
    write_markdown(args.out, report, before, args.before)


def write_markdown(out, report, before, before_path):
    """`compile-attributes.md` of a run's report, beside an earlier run's when given."""
    out.mkdir(parents=True, exist_ok=True)
    table = rows(report["results"], before and before["results"])
    found = report["gsis_llvm_lines_by_function"]
    n, runs = report["entities"], report["pairs"]
    m = report["machine"]
    text = [
        "# What each derive attribute costs at compile time", "",
        "Generated by `benches/compile_cost/attributes.py` (its header says what it measures); "
        "do not edit by hand. Command:", "", "```sh", report["command"], "```", "",
        f"Commit `{report['commit']}`, {n} entities of 12 fields per crate, "
        f"{runs} paired cold checks per variant, alternating with the serde crate. Machine: "
        f"{m['cpu']}, {m['cores']} cores, {m['memory_gib']} GiB, {m['rustc']}. Load average (1 min): "
        f"{report['load_average_1m']['before']} -> {report['load_average_1m']['after']}; above the "
        "core count the CPU times grow too (the cores' caches are shared), though far less than wall times; peak RSS and the line counts do not depend on "
        "the load.", "",
        "Each row adds one attribute to `gsis` (the model of `compile.md`); `plain` has only the "
        "pk and sk templates.", "",
        *([report["note"], ""] if report.get("note") else []),
        *([f"Cells read `before -> now`: before is `{before_path.name}` (commit "
           f"`{before['commit']}`, load {before['load_average_1m']['before']} -> "
           f"{before['load_average_1m']['after']}), kept as it was measured; its breakdown by "
           "function is in that file.", ""] if before else []),
        *table, "",
        "serde's derives generate generic functions (`serialize<S: Serializer>`), which rustc "
        "compiles to machine code only where they are used (`serde_dynamo::to_item` in the "
        "application): its LLVM IR count here leaves that out, while dynamap's `to_item` and "
        "`from_item` are compiled in the model crate.", "",
    ]
    if found:
        text += [
            "Where the `gsis` crate's LLVM IR lines go, by generated function "
            f"(`cargo llvm-lines`, which counts function bodies only, not the declarations and debug info of the file above; {found['total_per_entity']} lines per entity in all):", "",
            *breakdown_rows(found), "",
        ]
    (out / "compile-attributes.md").write_text("\n".join(text))
    print(f"wrote {out / 'compile-attributes.md'}")


if __name__ == "__main__":
    main()
