"""Writes a copy of ../../openapi.json that openapi-python-client can fully generate.

openapi.json itself is not edited. Each change here works around one place where
openapi-python-client 0.29.1 drops part of the document (see README.md in this folder):

1. components/schemas/Clock is `allOf: [{$ref: Control}, {object}]`, where Control is a
   `oneOf` (with a discriminator). The generator answers "Cannot take allOf a non-object" and
   drops Clock and with it GameResource, so no endpoint that answers a game has a parsed
   response. The copy distributes the allOf over the oneOf: Clock = oneOf of
   `allOf: [ControlNone | ControlPerMove | ControlFischer, {drop_after, vacation_allowed}]`,
   the same set of documents, with the same discriminator on `type`.
2. components/schemas/CreateGameRequest, property `options`: the switches `courts`,
   `deed_dev_each_suit` and `sim_law_choices` are `{"enum": [false, true]}` without `type`.
   The generator answers "Invalid property in union" and drops CreateGameRequest, so
   `POST /api/v1/games` is not generated at all. The copy adds `"type": "boolean"`.
"""

import copy
import json
import sys
from pathlib import Path
from typing import Any

here = Path(__file__).resolve().parent
source = here.parent.parent / "openapi.json"
target = Path(sys.argv[1]) if len(sys.argv) > 1 else here / "openapi.patched.json"

doc: dict[str, Any] = json.loads(source.read_text())
schemas: dict[str, Any] = doc["components"]["schemas"]
changes: list[str] = []

clock = schemas["Clock"]
control = schemas["Control"]
parts = clock.get("allOf", [])
if len(parts) == 2 and parts[0].get("$ref") == "#/components/schemas/Control" and "oneOf" in control:
    extra = parts[1]
    clock_variants: dict[str, str] = {}
    variants: list[dict[str, Any]] = []
    for member in control["oneOf"]:
        name = member["$ref"].rsplit("/", 1)[1]
        clock_name = "Clock" + name.removeprefix("Control")
        schemas[clock_name] = {
            "title": clock_name,
            "allOf": [member, copy.deepcopy(extra)],
        }
        variants.append({"$ref": f"#/components/schemas/{clock_name}"})
        tag = schemas[name]["properties"]["type"]["enum"][0]
        clock_variants[tag] = f"#/components/schemas/{clock_name}"
    schemas["Clock"] = {
        "description": clock.get("description", ""),
        "oneOf": variants,
        "discriminator": {"propertyName": "type", "mapping": clock_variants},
    }
    changes.append(
        "Clock: allOf[Control(oneOf), object] -> oneOf[allOf[ControlX, object]] " + ", ".join(clock_variants)
    )

options = schemas["CreateGameRequest"]["properties"]["options"]
for key, prop in options.get("properties", {}).items():
    enum = prop.get("enum")
    if "type" not in prop and enum and all(isinstance(v, bool) for v in enum):
        prop["type"] = "boolean"
        changes.append(f"CreateGameRequest.options.{key}: enum {enum} + type boolean")

target.write_text(json.dumps(doc, indent=2))
for change in changes:
    print(f"patched {change}")
print(f"wrote {target.name} ({len(changes)} changes)")
