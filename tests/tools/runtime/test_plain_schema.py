"""The quick argument check (tools/runtime/call/plain_schema.py) never lets through what jsonschema refuses,
and takes the common case (well-typed arguments) of every built-in tool without jsonschema."""
from __future__ import annotations

import jsonschema.validators
import pytest

import tools.catalog  # noqa: F401  (registers the built-in tools)
from tools.runtime.call.plain_schema import plainly_valid
from tools.builtin import builtin

SAMPLES = {"string": "text", "integer": 3, "number": 2.5, "boolean": True, "null": None, "array": [],
           "object": {}}
ODD = ["", "1", 1, 1.0, 0, -2, 2.5, True, False, None, [], [1], ["a", 2], {}, {"a": 1}, "full", "not listed"]


def sample(prop: dict):
    if "enum" in prop:
        return prop["enum"][0]
    kinds = prop.get("type", "string")
    kind = kinds if isinstance(kinds, str) else kinds[0]
    if kind == "array" and "items" in prop:
        return [sample(prop["items"])]
    return SAMPLES[kind]


def good_arguments(schema: dict) -> dict:
    return {name: sample(schema["properties"][name]) for name in schema.get("required", [])}


def jsonschema_ok(schema: dict, arguments: dict) -> bool:
    return not list(jsonschema.validators.validator_for(schema)(schema).iter_errors(arguments))


@pytest.mark.parametrize("name", sorted(builtin()))
def test_well_typed_arguments_pass_without_jsonschema(name):
    schema = builtin()[name].input_schema
    every = {n: sample(p) for n, p in schema["properties"].items()}
    for arguments in (good_arguments(schema), every):
        assert jsonschema_ok(schema, arguments)
        assert plainly_valid(schema, arguments), arguments


@pytest.mark.parametrize("name", sorted(builtin()))
def test_what_jsonschema_refuses_is_never_plainly_valid(name):
    schema = builtin()[name].input_schema
    good = good_arguments(schema)
    cases = [{**good, "no_such_argument": 1}]
    cases += [{k: v for k, v in good.items() if k != missing} for missing in good]
    for prop_name, prop in schema["properties"].items():
        values = ODD + [[v] for v in ODD] + list(prop.get("enum", []))
        cases += [{**good, prop_name: value} for value in values]
    for arguments in cases:
        if plainly_valid(schema, arguments):
            assert jsonschema_ok(schema, arguments), (name, arguments)


def test_a_schema_with_keywords_it_does_not_know_goes_to_jsonschema():
    schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}}
    assert not plainly_valid(schema, {"n": 5})
    assert not plainly_valid({"type": "object", "properties": {}, "patternProperties": {}}, {})
