# lit configuration for NDL's file tests. Each .ndl test carries its own
# `; RUN:` lines and `; CHECK:` expectations.
import os
import lit.formats

site = lit_config.params.get("site")
if site:
    lit_config.load_config(config, site)

config.name = "NDL"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ndl", ".test"]
# Helper scripts beside the tests are not tests.
config.excludes = ["Inputs", "examples.test.py", "stdlib_names.test.py", "net.py", "json_check.py", "net_program.py", "interrupt.py", "concurrent_runs.py", "same_routes.py", "adaptive_relations.py", "routing_doc_copies.test.py", "pattern_options.py"]

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.build_root, "tests", "lit")

config.substitutions.append(("%ndlc", config.ndlc))
config.substitutions.append(("%FileCheck", config.filecheck))
config.substitutions.append(("%python", config.python))
config.substitutions.append(("%srcroot", config.source_root))
config.substitutions.append(("%buildroot", config.build_root))
# `not` and FileCheck as plain commands, as LLVM's own tests write them.
config.environment["PATH"] = os.pathsep.join(
    [os.path.dirname(config.filecheck), os.path.dirname(config.not_tool), os.environ.get("PATH", "")])

# `ndlc run` (and so `ndlc sweep`) keeps its build cache inside the build tree.
config.environment["NDL_CACHE_DIR"] = os.environ.get(
    "NDL_CACHE_DIR", os.path.join(config.test_exec_root, "ndl-cache"))

# Tests leave out work that only repeats, ten times slower, what the normal build
# already covers (each says what and why), to keep CI within its time.
if getattr(config, "sanitized", False):
    config.environment["NDL_SANITIZED"] = "1"
    config.available_features.add("sanitized")

if getattr(config, "profile_core", False):
    config.available_features.add("profile-core")

# Sanitizer settings pass through to ndlc.
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "NDL_STDLIB"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

# The build graph can be asked what a target needs when the build tree is Ninja's.
if getattr(config, "generator", "") == "Ninja":
    config.available_features.add("ninja")
    config.substitutions.append(("%ninja", config.make_program))
