#!/usr/bin/env python3
"""Tests of editors/sync_names.py: the grammars agree with the checker's
tables, and a form or enum value added to (or removed from) the tables
without regenerating the grammars makes the check fail."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SCRIPT = os.path.join(ROOT, "editors", "sync_names.py")
FORMS = os.path.join(ROOT, "compiler", "sema", "Forms.def")
ENUMS = os.path.join(ROOT, "compiler", "sema", "Enums.def")
TM = os.path.join(ROOT, "editors", "vscode", "syntaxes", "ndl.tmLanguage.json")
VIM = os.path.join(ROOT, "editors", "vim", "syntax", "ndl.vim")


def run(*args):
    p = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


class SyncNames(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)

    def copy(self, src, extra="", drop=None):
        dst = os.path.join(self.tmp, os.path.basename(src))
        with open(src, encoding="utf-8") as f:
            lines = f.read().splitlines(True)
        if drop:
            lines = [l for l in lines if drop not in l]
        with open(dst, "w", encoding="utf-8") as f:
            f.write("".join(lines) + extra)
        return dst

    def test_committed_grammars_agree_with_the_tables(self):
        code, out = run("--check")
        self.assertEqual(code, 0, out)

    def test_a_new_form_without_a_grammar_update_fails(self):
        forms = self.copy(FORMS, 'NDL_FORM(BrandNewForm, Count, "", "a form the editors do not know yet")\n')
        code, out = run("--check", "--forms", forms)
        self.assertEqual(code, 1, out)
        self.assertIn("missing form 'BrandNewForm'", out)
        self.assertIn("ndl.tmLanguage.json", out)
        self.assertIn("ndl.vim", out)

    def test_a_removed_form_fails(self):
        forms = self.copy(FORMS, drop="NDL_FORM(Seed,")
        code, out = run("--check", "--forms", forms)
        self.assertEqual(code, 1, out)
        self.assertIn("extra form 'Seed'", out)

    def test_a_new_enum_value_fails(self):
        enums = self.copy(ENUMS, 'NDL_ENUM(Traffic, Zigzag, "a new pattern")\n')
        code, out = run("--check", "--enums", enums)
        self.assertEqual(code, 1, out)
        self.assertIn("missing enum 'Zigzag'", out)

    def test_commented_out_rows_do_not_count(self):
        forms = self.copy(FORMS, '// NDL_FORM(NotReally, Count, "", "commented out")\n')
        code, out = run("--check", "--forms", forms)
        self.assertEqual(code, 0, out)

    def test_write_regenerates_both_grammars(self):
        forms = self.copy(FORMS, 'NDL_FORM(BrandNewForm, Count, "", "x")\n')
        tm, vim = self.copy(TM), self.copy(VIM)
        code, out = run("--write", "--forms", forms, "--tm", tm, "--vim", vim)
        self.assertEqual(code, 0, out)
        code, out = run("--check", "--forms", forms, "--tm", tm, "--vim", vim)
        self.assertEqual(code, 0, out)
        with open(tm, encoding="utf-8") as f:
            grammar = json.load(f)
        self.assertIn("BrandNewForm", grammar["repository"]["form"]["begin"])
        with open(vim, encoding="utf-8") as f:
            self.assertIn("'BrandNewForm'", f.read())

    def test_committed_grammars_are_exactly_what_write_produces(self):
        tm, vim = self.copy(TM), self.copy(VIM)
        code, out = run("--write", "--tm", tm, "--vim", vim)
        self.assertEqual(code, 0, out)
        for mine, committed in ((tm, TM), (vim, VIM)):
            with open(mine, encoding="utf-8") as a, open(committed, encoding="utf-8") as b:
                self.assertEqual(a.read(), b.read(), committed + " differs from --write output")

    def test_a_hand_edited_grammar_fails(self):
        with open(TM, encoding="utf-8") as f:
            text = f.read()
        tm = os.path.join(self.tmp, "ndl.tmLanguage.json")
        with open(tm, "w", encoding="utf-8") as f:
            f.write(text.replace("|Seed|", "|Sed|", 1))
        code, out = run("--check", "--tm", tm)
        self.assertEqual(code, 1, out)
        self.assertIn("missing form 'Seed'", out)
        self.assertIn("extra form 'Sed'", out)


if __name__ == "__main__":
    unittest.main(verbosity=2)
