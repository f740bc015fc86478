"""Fails when a TopologyKind or Routing value of Enums.def has no matching
(define-topology (Name ...)) or (define-routing (Name) ...) in stdlib/."""
import pathlib
import re
import sys

enums = pathlib.Path(sys.argv[1]).read_text()
stdlib = "".join(p.read_text() for p in pathlib.Path(sys.argv[2]).glob("*.ndl"))
defined = set(re.findall(r"\(define-(?:topology|routing)\s+\(([^\s()]+)", stdlib))
aliases = {"XFirstYNext", "StarChannel"}
names = re.findall(r"^NDL_ENUM\((?:TopologyKind|Routing),\s*(\w+)", enums, re.M)
missing = [n for n in names if n not in defined and n not in aliases]
for n in missing:
    print(f"{n} is listed in Enums.def but not defined in stdlib/")
unlisted = sorted(defined - set(names))
for n in unlisted:
    print(f"{n} is defined in stdlib/ but not listed in Enums.def (editors, --list-forms)")
print(f"{len(names) - len(missing)} passed, {len(missing) + len(unlisted)} failed")
sys.exit(1 if missing or unlisted else 0)
