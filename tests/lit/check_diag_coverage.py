#!/usr/bin/env python3
"""Fails when a diagnostic kind of DiagnosticKinds.def has no lit test.

A kind is covered when some tests/lit/**/fail_*.ndl file has a CHECK line
that ends with "[kind]" (the kind as ndlc prints it), or a JSON check of
"kind": "kind".
"""
import pathlib
import re
import sys


def main(def_file: str, lit_dir: str) -> int:
    kinds = re.findall(r'^NDL_DIAG\(\w+,\s*"([a-z0-9-]+)"', pathlib.Path(def_file).read_text(), re.M)
    if not kinds:
        print(f"no kinds found in {def_file}")
        return 1
    checked = set()
    for test in pathlib.Path(lit_dir).rglob("fail_*.ndl"):
        for line in test.read_text(errors="replace").splitlines():
            if "CHECK" not in line:
                continue
            checked.update(re.findall(r"\[([a-z0-9-]+)\]\s*$", line))
            checked.update(re.findall(r'"kind":\s*"([a-z0-9-]+)"', line))
    missing = [k for k in kinds if k not in checked]
    for k in missing:
        print(f"diagnostic kind '{k}' has no tests/lit/**/fail_*.ndl test checking it")
    print(f"{len(kinds) - len(missing)} of {len(kinds)} diagnostic kinds have a fail_*.ndl test")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
