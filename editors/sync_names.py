#!/usr/bin/env python3
"""Keep the editor grammars in step with the checker's tables.

The names NDL knows come from one place: compiler/sema/Forms.def (forms) and
compiler/sema/Enums.def (enum values, including the topology constructors).
The editor grammars carry them as generated lists:

  editors/vscode/syntaxes/ndl.tmLanguage.json   alternations written
                                                (?#forms)(?:A|B|...)
  editors/vim/syntax/ndl.vim                    blocks between
                                                " BEGIN GENERATED <cat>
                                                " END GENERATED <cat>

  sync_names.py --check   exit 1 naming every name missing from or extra in
                          either grammar (the CTest `editors.sync` runs this)
  sync_names.py --write   regenerate the lists in place
  sync_names.py --list forms|enums|keywords|definitions|units
                          print what the grammars must know (used by the tests)

A few names of the language are not rows of the checker's tables: the
topology sub-forms and the keywords of the expression language (spec 1.3),
and the units of spec 1.1. They are listed below; add to them here when the
language grows.
"""

import argparse
import json
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

# Spec 1.3 forms that build custom topologies; not rows of Forms.def.
EXTRA_FORMS = ["Nodes", "Link", "UnidirectionalLink", "Endpoints", "Concentration", "Groups"]
# Keywords of the expression language (spec 1.3), coloured in head position.
KEYWORDS = ["let", "if", "cond", "for", "mod"]
# Definition forms: the word after them (or the head of the list after them)
# is the defined name.
DEFINITIONS = ["define"]
# Units of spec 1.1, case as written. A quantity with any other unit is
# marked invalid (the checker rejects it with a suggestion).
UNITS = [
    "bit/clock", "byte/clock", "MB/s",                        # bandwidth
    "bit", "byte", "Kbyte", "Mbyte", "flit", "phit",          # size
    "sec", "msec", "usec", "nsec", "psec", "s", "ms", "us", "ns", "ps",
    "clock", "cycle",                                         # time
    "Hz", "kHz", "MHz", "GHz",                                # frequency
    "Gbps",
    "%",                                                      # ratio
]

CATEGORIES = ("forms", "enums", "keywords", "definitions", "units")
NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
UNIT_RE = re.compile(r"^(?:[A-Za-z]+(?:/[A-Za-z]+)?|%)$")
FORM_RE = re.compile(r"^\s*NDL_FORM\(\s*([^,\s)]+)\s*,", re.M)
ENUM_RE = re.compile(r"^\s*NDL_ENUM\(\s*[^,\s)]+\s*,\s*([^,\s)]+)\s*,", re.M)
TM_RE = re.compile(r"\(\?#(" + "|".join(CATEGORIES) + r")\)\(\?:([^)]*)\)")
VIM_BLOCK_RE = re.compile(
    r'^" BEGIN GENERATED (\w+)[^\n]*\n(.*?)^" END GENERATED \1[^\n]*$', re.M | re.S)

TM_PATH = os.path.join("editors", "vscode", "syntaxes", "ndl.tmLanguage.json")
VIM_PATH = os.path.join("editors", "vim", "syntax", "ndl.vim")


def unique(names):
    seen, out = set(), []
    for n in names:
        if n not in seen:
            seen.add(n)
            out.append(n)
    return out


def read_def(path, regex, what):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        sys.exit(f"sync_names: cannot read {what} table {path}: {e.strerror}")
    # Drop // comments so that the documented example line does not count.
    text = re.sub(r"//[^\n]*", "", text)
    names = regex.findall(text)
    if not names:
        sys.exit(f"sync_names: no entries found in {path}")
    return names


def expected_names(forms_def, enums_def):
    forms = read_def(forms_def, FORM_RE, "form")
    enums = read_def(enums_def, ENUM_RE, "enum")
    want = {
        "forms": unique(forms + EXTRA_FORMS),
        "enums": unique(enums),
        "keywords": list(KEYWORDS),
        "definitions": list(DEFINITIONS),
        "units": list(UNITS),
    }
    bad = [n for cat, names in want.items() for n in names
           if not (UNIT_RE if cat == "units" else NAME_RE).match(n)]
    if bad:
        sys.exit("sync_names: names the grammars cannot carry (letters, digits, _ only): "
                 + ", ".join(bad))
    return want, {"forms": forms_def, "enums": enums_def}


# ---------------------------------------------------------------- TextMate

def tm_lists(text):
    """[(category, [names])] for every marked alternation, in file order."""
    return [(m.group(1), [n for n in m.group(2).split("|") if n]) for m in TM_RE.finditer(text)]


def tm_render(text, want):
    return TM_RE.sub(lambda m: "(?#%s)(?:%s)" % (m.group(1), "|".join(want[m.group(1)])), text)


# ---------------------------------------------------------------- Vim

def vim_lists(text):
    return [(m.group(1), re.findall(r"'([^']*)'", m.group(2))) for m in VIM_BLOCK_RE.finditer(text)]


def vim_render(text, want):
    def block(m):
        cat = m.group(1)
        lines, line = [], "let s:%s = [" % cat
        for i, n in enumerate(want[cat]):
            item = "'%s'%s" % (n, "," if i + 1 < len(want[cat]) else "")
            if len(line) + len(item) + 1 > 78:
                lines.append(line)
                line = "      \\"
            line += (" " if not line.endswith("[") else "") + item
        lines.append(line + "]")
        return '" BEGIN GENERATED %s (editors/sync_names.py --write)\n%s\n" END GENERATED %s' % (
            cat, "\n".join(lines), cat)
    return VIM_BLOCK_RE.sub(block, text)


# ---------------------------------------------------------------- main

def check_file(path, lists, want, sources):
    errors = []
    found = {c for c, _ in lists}
    for cat in CATEGORIES:
        if cat not in found:
            errors.append(f"{path}: no generated list of {cat}")
    for i, (cat, names) in enumerate(lists):
        where = f"{path}: {cat} list #{sum(1 for c, _ in lists[:i] if c == cat) + 1}"
        src = sources.get(cat, "editors/sync_names.py")
        have = set(names)
        for n in want[cat]:
            if n not in have:
                errors.append(f"{where}: missing {cat[:-1]} '{n}' (from {src})")
        for n in names:
            if n not in want[cat]:
                errors.append(f"{where}: extra {cat[:-1]} '{n}' (not in {src})")
        if len(names) != len(set(names)):
            errors.append(f"{where}: duplicate names")
    return errors


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="exit 1 if a grammar is out of date")
    mode.add_argument("--write", action="store_true", help="regenerate the lists in the grammars")
    mode.add_argument("--list", choices=CATEGORIES, metavar="CATEGORY",
                      help="print the expected names of one category (%s), one per line; "
                           "the editor tests read their expectations this way" % ", ".join(CATEGORIES))
    ap.add_argument("--root", default=ROOT, help="source tree (default: this checkout)")
    ap.add_argument("--forms", help="Forms.def (default: ROOT/compiler/sema/Forms.def)")
    ap.add_argument("--enums", help="Enums.def (default: ROOT/compiler/sema/Enums.def)")
    ap.add_argument("--tm", help="TextMate grammar (default: ROOT/" + TM_PATH + ")")
    ap.add_argument("--vim", help="Vim syntax file (default: ROOT/" + VIM_PATH + ")")
    args = ap.parse_args()

    forms_def = args.forms or os.path.join(args.root, "compiler", "sema", "Forms.def")
    enums_def = args.enums or os.path.join(args.root, "compiler", "sema", "Enums.def")
    want, sources = expected_names(forms_def, enums_def)
    if args.list:
        print("\n".join(want[args.list]))
        return 0
    grammars = [
        (args.tm or os.path.join(args.root, TM_PATH), tm_lists, tm_render),
        (args.vim or os.path.join(args.root, VIM_PATH), vim_lists, vim_render),
    ]

    errors = []
    for path, lists, render in grammars:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            errors.append(f"{path}: cannot read: {e.strerror}")
            continue
        if args.write:
            new = render(text, want)
            if path.endswith(".json"):
                json.loads(new)  # never write a broken grammar
            if new != text:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(new)
                print(f"sync_names: updated {path}")
            text = new
        errors += check_file(path, lists(text), want, sources)

    for e in errors:
        print("sync_names: " + e, file=sys.stderr)
    if errors:
        print(f"sync_names: {len(errors)} problem(s); run editors/sync_names.py --write "
              "and commit the grammars", file=sys.stderr)
        return 1
    if args.check:
        counts = ", ".join(f"{len(want[c])} {c}" for c in CATEGORIES)
        print(f"sync_names: grammars agree with the checker's tables ({counts})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
