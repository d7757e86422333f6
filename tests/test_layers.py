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


#: the modules through which a layer is used from outside it: its package,
#: and for storage its sub-packages (DESIGN.md's storage/location,
#: persist, txns, oracle) and top-level modules; never a module inside one
def _public(module: str) -> bool:
    parts = module.split(".")
    return len(parts) == 1 or (parts[0] == "storage" and len(parts) == 2)


def _is_module(dotted: str) -> bool:
    path = ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _exported(package: str) -> set[str]:
    """The names a package's ``__all__`` lists (a module among them is part
    of its API, as ``local_exec.jsonb``)."""
    init = ROOT.joinpath(*package.split("."), "__init__.py")
    if not init.exists():
        return set()
    for node in ast.parse(init.read_text()).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return set(ast.literal_eval(node.value))
    return set()


def _reached(path: pathlib.Path, layer: str) -> set[str]:
    """The modules of other layers ``path`` imports, by name (``from p
    import m`` of a module ``m`` reaches ``p.m``)."""
    tree = ast.parse(path.read_text(), str(path))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names
                       if _is_module(f"{node.module}.{a.name}") and a.name not in _exported(node.module))
    return {m for m in out if m.split(".")[0] in BELOW and m.split(".")[0] != layer}


def test_layers_use_each_other_through_their_public_api():
    """An upper layer imports a lower one's package (``from planner import
    Session``), never a module inside it (``planner.sqltypes``): what a
    layer offers is what its ``__init__`` exports."""
    wrong = []
    for layer in BELOW:
        for path in sorted((ROOT / layer).rglob("*.py")):
            wrong += [f"{path.relative_to(ROOT)} imports {m}" for m in sorted(_reached(path, layer)) if not _public(m)]
    assert not wrong, wrong
