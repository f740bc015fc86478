"""pandas, for the functions that return DataFrames (ndl.sweep, the table loaders).

pandas comes from Debian's python3-pandas (scripts/install-deps.sh), installed for Debian's
/usr/bin/python3. Another interpreter of the same Python version on PATH (pyenv, a venv
without system packages) does not see Debian's packages; for it, pandas is looked for in
Debian's folder once its own import fails. Importing ndl alone needs nothing but Python.
"""
import sys

DEBIAN_PACKAGES = "/usr/lib/python3/dist-packages"
_pandas = None


def pandas():
    global _pandas
    if _pandas is not None:
        return _pandas
    try:
        import pandas as pd
    except ImportError:
        import os
        import sysconfig
        # Debian's extension modules are built for its one Python version: use them only
        # from an interpreter of that version (their file names carry it).
        tag = sysconfig.get_config_var("EXT_SUFFIX") or ""
        numpy_dir = os.path.join(DEBIAN_PACKAGES, "numpy", "core")
        usable = os.path.isdir(numpy_dir) and any(
            f.endswith(tag) for f in os.listdir(numpy_dir)) if tag else False
        if not usable or DEBIAN_PACKAGES in sys.path:
            raise ImportError(
                "ndl needs pandas for DataFrames: install Debian's python3-pandas "
                "(scripts/install-deps.sh does) and use /usr/bin/python3, or an interpreter "
                f"of Python {sys.version_info[0]}.{sys.version_info[1]} with pandas") from None
        sys.path.append(DEBIAN_PACKAGES)
        import pandas as pd
    _pandas = pd
    return pd
