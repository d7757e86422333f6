"""The layers of DESIGN.md import one way: a module of a layer imports only
its own layer and the layers below it (storage, then values, then the
engines, then planner, gateway and the command line)."""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent

#: each layer and what it may import besides itself
BELOW = {
    "storage": set(),
    "values": {"storage"},
    "local_exec": {"storage", "values"},
    "spark_exec": {"storage", "values", "local_exec"},
    "planner": {"storage", "values", "local_exec", "spark_exec"},
    "gateway": {"storage", "values", "local_exec", "spark_exec", "planner"},
    "txngate": {"storage", "values", "local_exec", "spark_exec", "planner", "gateway"},
}


def _imported(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text(), str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names & set(BELOW)


def test_no_layer_imports_one_above_it():
    wrong = []
    for layer, allowed in BELOW.items():
        for path in sorted((ROOT / layer).rglob("*.py")):
            for name in _imported(path) - allowed - {layer}:
                wrong.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not wrong, wrong
