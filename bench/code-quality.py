#!/usr/bin/env python3
"""Benchmark (not a test): code quality of the AMDGPU build, per kernel.

Compiles each PTX module with `zluda-precompile compile --emit=hsaco` and
prints, per kernel, the machine instructions of the kernel's own code, the
VGPRs and SGPRs it allocates, the registers it spills, its LDS (group
segment) and scratch (private segment) bytes, read from the code object's
metadata note and its disassembly. Given --base, the same for another build
of the tool side by side, with the differences and a summary: how many
kernels got better or worse in each column, and the totals.

Usage:
  bench/code-quality.py [--tool NEW] [--base OLD] [--arch gfx1100]
                        [--csv FILE] [PTX...]
With no PTX, the corpus' sm_80 modules (test/corpus/ptx/*.sm_80.ptx).
Modules that do not compile for the target are listed and left out.
Tools: llvm-readelf and llvm-objdump of LLVM 22 (PATH, then
/usr/lib/llvm-22/bin).
"""
import argparse
import csv
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COLUMNS = ["instrs", "vgpr", "sgpr", "vgpr_spill", "sgpr_spill", "lds",
           "scratch"]
NOTE_KEYS = {".vgpr_count": "vgpr", ".sgpr_count": "sgpr",
             ".vgpr_spill_count": "vgpr_spill",
             ".sgpr_spill_count": "sgpr_spill",
             ".group_segment_fixed_size": "lds",
             ".private_segment_fixed_size": "scratch"}


def llvm_tool(name):
    for candidate in (name + "-22", name):
        found = shutil.which(candidate)
        if found:
            return found
    path = "/usr/lib/llvm-22/bin/" + name
    if os.path.exists(path):
        return path
    sys.exit("code-quality: %s not found" % name)


def kernel_metadata(readelf, hsaco):
    """{symbol: {column: value}} from the AMDGPU metadata note (LLVM prints
    it as YAML: a kernel's map starts at "  - ", its keys are indented by
    four)."""
    text = subprocess.run([readelf, "--notes", hsaco], check=True,
                          capture_output=True, text=True).stdout
    kernels, current = [], None
    for line in text.splitlines():
        if line.startswith("  - "):
            current = {}
            kernels.append(current)
            line = "    " + line[4:]
        m = re.match(r"^    (\.[a-z_]+):\s*(.*)$", line)
        if current is None or not m:
            continue
        key, value = m.group(1), m.group(2).strip()
        if key == ".symbol":
            current["symbol"] = value.removesuffix(".kd")
        elif key in NOTE_KEYS:
            current[NOTE_KEYS[key]] = int(value)
    return {k["symbol"]: {c: v for c, v in k.items() if c != "symbol"}
            for k in kernels if "symbol" in k}


def instruction_counts(objdump, hsaco):
    """{function symbol: instructions in its code}."""
    text = subprocess.run([objdump, "-d", "--no-show-raw-insn",
                           "--no-leading-addr", hsaco], check=True,
                          capture_output=True, text=True).stdout
    functions, current = {}, None
    for line in text.splitlines():
        m = re.match(r"^<(.*)>:$", line)
        if m:
            current = functions.setdefault(m.group(1), [])
        elif current is not None and line.startswith("\t"):
            current.append(line.split("//")[0].strip())
    # Without the padding after a function's last instruction.
    counts = {}
    for name, lines in functions.items():
        while lines and lines[-1] in ("s_nop 0", "s_code_end", "", "..."):
            lines.pop()
        counts[name] = len(lines)
    return counts


def measure(tool, arch, ptx, work, readelf, objdump):
    out = os.path.join(work, "out.hsaco")
    result = subprocess.run([tool, "compile", ptx, "--arch", arch,
                             "--emit=hsaco", "-o", out],
                            capture_output=True, text=True)
    if result.returncode != 0:
        errors = [l for l in result.stderr.splitlines() if "error:" in l]
        return None, (errors or result.stderr.strip().splitlines())[:1]
    meta = kernel_metadata(readelf, out)
    counts = instruction_counts(objdump, out)
    table = {}
    for name, values in meta.items():
        row = {c: values.get(c, 0) for c in COLUMNS}
        row["instrs"] = counts.get(name, 0)
        table[name] = row
    return table, None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tool", default=os.environ.get(
        "ZLUDA_PRECOMPILE", os.path.join(ROOT, "build/bin/zluda-precompile")))
    parser.add_argument("--base", help="the tool to compare with")
    parser.add_argument("--arch", default="gfx1100")
    parser.add_argument("--csv", help="also write the rows to this file")
    parser.add_argument("ptx", nargs="*")
    args = parser.parse_args()
    modules = args.ptx or sorted(glob.glob(
        os.path.join(ROOT, "test/corpus/ptx/*.sm_80.ptx")))
    readelf, objdump = llvm_tool("llvm-readelf"), llvm_tool("llvm-objdump")
    tools = [("new", args.tool)] + ([("base", args.base)] if args.base else [])
    rows, skipped = [], []
    with tempfile.TemporaryDirectory() as work:
        for ptx in modules:
            tables = {}
            for label, tool in tools:
                table, why = measure(tool, args.arch, ptx, work, readelf,
                                     objdump)
                if table is None:
                    skipped.append((os.path.basename(ptx), label, why))
                    break
                tables[label] = table
            if len(tables) != len(tools):
                continue
            for kernel in sorted(tables["new"]):
                row = {"module": os.path.basename(ptx), "kernel": kernel}
                for label, _ in tools:
                    for c in COLUMNS:
                        row[label + "." + c] = \
                            tables[label].get(kernel, {}).get(c, "")
                rows.append(row)
    labels = [label for label, _ in tools]
    short = {"instrs": "instr", "vgpr_spill": "vspill",
             "sgpr_spill": "sspill"}
    header = ["kernel"] + [short.get(c, c) + ("" if len(tools) == 1 else
                                              "(" + l + ")")
                           for c in COLUMNS for l in reversed(labels)]
    print("\t".join(header))
    for row in rows:
        name = row["kernel"]
        if len(name) > 48:
            name = name[:45] + "..."
        print("\t".join([name] + [str(row[l + "." + c]) for c in COLUMNS
                                  for l in reversed(labels)]))
    print("%d kernels of %d modules, %s" % (len(rows), len(modules) -
          len({s[0] for s in skipped}), args.arch))
    for module, label, why in skipped:
        print("left out: %s (%s tool: %s)" % (module, label,
                                             " ".join(why)))
    if args.base:
        for c in COLUMNS:
            pairs = [(r["base." + c], r["new." + c]) for r in rows
                     if r["base." + c] != "" and r["new." + c] != ""]
            better = sum(1 for b, n in pairs if n < b)
            worse = sum(1 for b, n in pairs if n > b)
            tb, tn = sum(b for b, _ in pairs), sum(n for _, n in pairs)
            print("%-10s total base %8d new %8d (%+.2f%%)  better %3d  "
                  "worse %3d  same %3d" % (c, tb, tn,
                                           100.0 * (tn - tb) / tb if tb
                                           else 0.0, better, worse,
                                           len(pairs) - better - worse))
    else:
        for c in COLUMNS:
            print("%-10s total %8d" % (c, sum(r["new." + c] for r in rows)))
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0]) if rows
                                    else ["module", "kernel"])
            writer.writeheader()
            writer.writerows(rows)


if __name__ == "__main__":
    main()
