"""Fails when a definition shown in docs/routing.md's code blocks differs from
the stdlib's definition of the same name; reports how many were compared."""
import pathlib
import re
import sys


def forms(text):
    """The top-level parenthesised forms of NDL source, comments removed."""
    text = re.sub(r";[^\n]*", "", text)
    out, depth, start = [], 0, None
    for i, ch in enumerate(text):
        if ch == "(":
            if depth == 0:
                start = i
            depth += 1
        elif ch == ")" and depth > 0:
            depth -= 1
            if depth == 0:
                out.append(text[start : i + 1])
    return out


def key(form):
    m = re.match(r"\((define(?:-routing)?)\s+\(([^\s()]+)", form)
    return (m.group(1), m.group(2)) if m else None


def norm(form):
    return " ".join(re.sub(r"([()])", r" \1 ", form).split())


doc = pathlib.Path(sys.argv[1]).read_text()
stdlib = {key(f): norm(f) for f in forms(pathlib.Path(sys.argv[2]).read_text()) if key(f)}
blocks = re.findall(r"```lisp\n(.*?)```", doc, re.S)
compared, differ = 0, []
for block in blocks:
    for f in forms(block):
        k = key(f)
        if k is None or k not in stdlib:
            continue  # a user's example, not a copy
        compared += 1
        if norm(f) != stdlib[k]:
            differ.append(k[1])
for name in differ:
    print(f"docs/routing.md shows {name} differently from stdlib/routing.ndl")
print(f"{compared - len(differ)} passed, {len(differ)} failed")
# Nothing compared means the docs lost their copies (or the pattern broke).
sys.exit(1 if differ or compared == 0 else 0)
