"""The package on its own: models generated from the committed contract, every operation
covered, no import of the service, a class for every problem code the README lists."""

from __future__ import annotations

import ast
import importlib.util
import json
import re
from pathlib import Path

import cya_client
from cya_client import errors
from cya_client.client import OPERATIONS, AsyncClient, Client

ROOT = Path(__file__).resolve().parents[2]
SDK = ROOT / "clients" / "python"


def _generator():  # the script, loaded by path as the one command loads it
    spec = importlib.util.spec_from_file_location("generate_models",
                                                  SDK / "scripts" / "generate_models.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_given_the_committed_contract_then_the_generated_models_are_current():
    generated = _generator().generate(ROOT / "openapi" / "openapi.json")

    assert generated == (SDK / "cya_client" / "models.py").read_text(), (
        "clients/python/cya_client/models.py is stale: run "
        "python clients/python/scripts/generate_models.py")


def test_given_the_contract_then_every_operation_has_a_method_sync_and_async():
    contract = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    operation_ids = {op["operationId"] for path in contract["paths"].values()
                     for op in path.values() if isinstance(op, dict) and "operationId" in op}

    assert set(OPERATIONS) == operation_ids
    for cls in (Client, AsyncClient):
        client = cls("http://127.0.0.1:9")
        for method in OPERATIONS.values():
            area, name = method.split(".")
            assert callable(getattr(getattr(client, area), name)), (cls, method)


def test_given_the_package_then_it_imports_nothing_of_the_service():
    package = Path(cya_client.__file__).parent
    imported: set[str] = set()
    for source in [*package.rglob("*.py"), *(SDK / "examples").glob("*.py"),
                   *(SDK / "scripts").glob("*.py")]:
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Import):
                imported |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imported.add(node.module.split(".")[0])

    assert not imported & {"service", "workers", "tests"}, imported


def test_given_the_readmes_error_table_then_each_code_has_its_exception():
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("| status | `code` | when |"):].split("\n\n", 1)[0]
    codes = set(re.findall(r"`([a-z_]+)`", "\n".join(
        line.split("|")[2] for line in table.splitlines()[2:])))

    assert codes and codes == set(errors.BY_CODE)
    for code, cls in errors.BY_CODE.items():
        assert issubclass(cls, errors.ProblemError) and code == cls.CODE
        assert getattr(cya_client, cls.__name__) is cls
