# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "ZLUDA-PRECOMPILE"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".ptx", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.zluda_obj_root, "test")
# Inputs, not tests.
config.excludes = ["corpus", "cuda", "emu", "unit", "verify", "Inputs", "fuzz-regressions", "fuzz", "lit.cfg.py", "lit.site.cfg.py"]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
tool_dirs = [config.zluda_tools_dir, config.llvm_tools_dir]
tools = ["zluda-opt", "zluda-precompile", "zluda-shim-probe", "FileCheck", "not", "count", "split-file", "llvm-readelf"]
llvm_config.add_tool_substitutions(tools, tool_dirs)
# The stand-in driver library of the runtime shim's tests.
config.substitutions.append(("%recorder_driver", os.path.join(config.zluda_obj_root, "test", "unit", "libzluda-recorder-driver.so")))
# A small file system of the test's own (a full disk): a tmpfs mounted in a
# private mount namespace (unshare -rm), where the kernel allows it.
import subprocess
_probe = "d=$(mktemp -d) && unshare -rm mount -t tmpfs -o size=8k tmpfs $d; rc=$?; rmdir $d; exit $rc"
if subprocess.run(["sh", "-c", _probe], capture_output=True).returncode == 0:
    config.available_features.add("private-tmpfs")
