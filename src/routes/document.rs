//! Finishing touches on the generated OpenAPI document, so that client generators name and
//! narrow what they generate (api.md "The first hour"):
//! - each member of a union tagged by `type` becomes a named schema (`MagnateBuild`, ...) with a
//!   title, and the union gets `discriminator: {propertyName: "type"}` with its mapping;
//! - the `options` of `POST /games` list `preset` and every option of every hosted game, with
//!   their allowed values and JSON type, from the same registry that validates them;
//! - `Clock` (a `Control` union plus two settings) becomes a union of three named objects, each
//!   `allOf` a control and the settings, since generators cannot take `allOf` of a union;
//!   a competition's clock is that union without `none`, which competitions refuse;
//! - the unions of every game's actions (`Action`, `GameAction`) are `anyOf`, not `oneOf`: the
//!   game's kind, not the action, decides which game's union applies, and two games may share
//!   an action shape (`{"type": "end"}` is Magnate's and Merchants & Marauders'), which a strict
//!   `oneOf` would refuse as matching twice.

use crate::engine::registry::GameKind;
use serde_json::{Map, Value, json};

/// The document as JSON, finished.
pub fn finish(mut doc: Value) -> Value {
    if let Some(schemas) = doc
        .pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
    {
        name_tagged_unions(schemas);
        split_clock(schemas);
        competition_clock(schemas);
        for union in GAME_UNIONS {
            any_of(schemas, union);
        }
        for schema in schemas.values_mut() {
            open_bare_objects(schema);
        }
        if let Some(options) = schemas
            .get_mut("CreateGameRequest")
            .and_then(|s| s.pointer_mut("/properties/options"))
        {
            type_options(options);
        }
    }
    if let Some(root) = doc.as_object_mut() {
        root.insert("webhooks".to_owned(), webhooks());
    }
    doc
}

/// The deliveries of `POST /api/v1/me/webhooks` as OpenAPI 3.1 describes outgoing calls: the
/// receiver's side of the contract (design.md section 17).
fn webhooks() -> Value {
    serde_json::json!({
        "accountEvent": {
            "post": {
                "operationId": "receive_account_event",
                "summary": "An account event delivered to a webhook",
                "description": "herald POSTs each event of the subscribed kinds, the same object as the event stream's `data`. Answer 2xx once stored; anything else (or no answer within 10 s) is tried again later under the same `Herald-Event-Id` (5 s, 10 s, 20 s... at most an hour apart); after 3 days of failures the subscription is disabled and its owner mailed.",
                "parameters": [
                    {"name": "Herald-Signature", "in": "header", "required": true,
                     "description": "`sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the subscription's secret.",
                     "schema": {"type": "string", "pattern": "^sha256=[0-9a-f]{64}$"}},
                    {"name": "Herald-Event-Id", "in": "header", "required": true,
                     "description": "The account's event number: the same on every retry, so deduplicate by it.",
                     "schema": {"type": "string", "pattern": "^[0-9]+$"}},
                ],
                "requestBody": {
                    "required": true,
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/AccountEvent"}}}
                },
                "responses": {
                    "2XX": {"description": "Stored: the delivery is done."},
                    "default": {"description": "Not stored: herald tries again later."}
                }
            }
        }
    })
}

/// The unions of the games' own (discriminated) action unions. No discriminator fits them: the
/// same `type` names a different action in another game (`build`, `sell`, `place`) or the very
/// same shape (`end`).
const GAME_UNIONS: [&str; 2] = ["Action", "GameAction"];

/// `oneOf` → `anyOf` for a union whose members may overlap. Both generators this document is
/// checked with read `anyOf` of named members as they read `oneOf` (openapi-typescript: `A | B`;
/// openapi-python-client: a `Union` tried member by member), so only validators see a
/// difference, and `anyOf` is what lets them accept an action two games share.
fn any_of(schemas: &mut Map<String, Value>, name: &str) {
    if let Some(union) = schemas.get_mut(name).and_then(Value::as_object_mut)
        && let Some(members) = union.remove("oneOf")
    {
        union.insert("anyOf".to_owned(), members);
    }
}

/// `build` → `Build`, `start_extension` → `StartExtension`.
fn camel(tag: &str) -> String {
    tag.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

/// The single value of an inline object member's `tag` property, if it is one.
fn tag_of(member: &Value, tag: &str) -> Option<String> {
    if member.get("$ref").is_some() {
        return None;
    }
    let t = member.get("properties")?.get(tag)?;
    let values = t.get("enum").and_then(Value::as_array)?;
    match values.as_slice() {
        [Value::String(one)] => Some(one.clone()),
        _ => None,
    }
}

/// Unions tagged by `type` (actions, clocks) and by `action` (a competition director's
/// requests).
fn name_tagged_unions(schemas: &mut Map<String, Value>) {
    for tag in ["type", "action"] {
        name_unions_tagged_by(schemas, tag);
    }
}

fn name_unions_tagged_by(schemas: &mut Map<String, Value>, tag_name: &str) {
    let unions: Vec<String> = schemas
        .iter()
        .filter(|(_, s)| {
            s.get("oneOf")
                .and_then(Value::as_array)
                .is_some_and(|m| !m.is_empty() && m.iter().all(|m| tag_of(m, tag_name).is_some()))
        })
        .map(|(name, _)| name.clone())
        .collect();
    for union in unions {
        let Some(members) = schemas
            .get_mut(&union)
            .and_then(|s| s.get_mut("oneOf"))
            .map(Value::take)
        else {
            continue;
        };
        let mut refs = Vec::new();
        let mut mapping = Map::new();
        for mut member in members.as_array().cloned().unwrap_or_default() {
            let Some(tag) = tag_of(&member, tag_name) else {
                continue;
            };
            // `MagnateAction` + `build` → `MagnateBuild` (the long form if that name is taken);
            // a director's request keeps its own title (`DirectorSetResult`). The names of
            // the `type` unions' members are stable names clients use, whatever their titles.
            let titled = member
                .get("title")
                .filter(|_| tag_name == "action")
                .and_then(Value::as_str)
                .filter(|t| !schemas.contains_key(*t))
                .map(str::to_owned);
            let short = titled
                .unwrap_or_else(|| format!("{}{}", union.trim_end_matches("Action"), camel(&tag)));
            let name = if schemas.contains_key(&short) {
                format!("{union}{}", camel(&tag))
            } else {
                short
            };
            member["title"] = Value::from(name.clone());
            let reference = format!("#/components/schemas/{name}");
            mapping.insert(tag, Value::from(reference.clone()));
            refs.push(json!({"$ref": reference}));
            schemas.insert(name, member);
        }
        if let Some(s) = schemas.get_mut(&union) {
            s["oneOf"] = Value::Array(refs);
            s["discriminator"] = json!({"propertyName": tag_name, "mapping": mapping});
        }
    }
}

/// `Clock = allOf[Control, settings]` → `Clock = oneOf[ClockNone, ClockPerMove, ClockFischer]`,
/// each `allOf[ControlX, ClockSettings]`, under the same discriminator as `Control`.
fn split_clock(schemas: &mut Map<String, Value>) {
    let Some(parts) = schemas
        .get("Clock")
        .and_then(|c| c.get("allOf"))
        .and_then(Value::as_array)
        .cloned()
    else {
        return;
    };
    let (Some(settings), Some(control)) = (
        parts.iter().find(|p| p.get("$ref").is_none()).cloned(),
        schemas.get("Control").cloned(),
    ) else {
        return;
    };
    let description = schemas["Clock"]["description"].clone();
    let mut settings = settings;
    settings["title"] = Value::from("ClockSettings");
    schemas.insert("ClockSettings".to_owned(), settings);
    let mut refs = Vec::new();
    let mut mapping = Map::new();
    let control_mapping = control
        .pointer("/discriminator/mapping")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    for (tag, reference) in control_mapping {
        let Some(control_name) = reference.as_str().and_then(|r| r.rsplit('/').next()) else {
            continue;
        };
        let name = control_name.replacen("Control", "Clock", 1);
        schemas.insert(
            name.clone(),
            json!({
                "title": name,
                "allOf": [{"$ref": reference}, {"$ref": "#/components/schemas/ClockSettings"}],
            }),
        );
        let r = format!("#/components/schemas/{name}");
        mapping.insert(tag, Value::from(r.clone()));
        refs.push(json!({"$ref": r}));
    }
    schemas.insert(
        "Clock".to_owned(),
        json!({
            "description": description,
            "oneOf": refs,
            "discriminator": {"propertyName": "type", "mapping": mapping},
        }),
    );
}

/// `CompetitionClock`: `Clock` without `ClockNone`, for `POST /competitions`, which refuses a
/// clock without deadlines (one seat could stall a round for good). The competition's stored
/// clock is shown as a `Clock` still.
fn competition_clock(schemas: &mut Map<String, Value>) {
    let Some(clock) = schemas.get("Clock").cloned() else {
        return;
    };
    let none = "#/components/schemas/ClockNone";
    let members: Vec<Value> = clock["oneOf"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|m| m["$ref"] != none)
        .cloned()
        .collect();
    let mut mapping = clock
        .pointer("/discriminator/mapping")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    mapping.retain(|_, r| r != none);
    schemas.insert(
        "CompetitionClock".to_owned(),
        json!({
            "description": "A competition's games' time control: a `Clock`, but never `none` (a game without deadlines could stall a round for good).",
            "oneOf": members,
            "discriminator": {"propertyName": "type", "mapping": mapping},
        }),
    );
    if let Some(field) = schemas
        .get_mut("CreateCompetitionRequest")
        .and_then(|s| s.pointer_mut("/properties/clock"))
    {
        point_to(
            field,
            "#/components/schemas/Clock",
            "#/components/schemas/CompetitionClock",
        );
    }
}

/// Every `$ref` to `from` within `schema` made a `$ref` to `to`.
fn point_to(schema: &mut Value, from: &str, to: &str) {
    match schema {
        Value::Object(map) => {
            if map.get("$ref").is_some_and(|r| r == from) {
                map.insert("$ref".to_owned(), Value::from(to));
            }
            map.values_mut().for_each(|v| point_to(v, from, to));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| point_to(v, from, to)),
        _ => {}
    }
}

/// An object schema without properties (a game's rules, view parts, events) is free-form:
/// `additionalProperties: true` says so, where generators would otherwise read "no keys".
fn open_bare_objects(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            let object = match map.get("type") {
                Some(Value::String(t)) => t == "object",
                Some(Value::Array(ts)) => ts.contains(&Value::from("object")),
                _ => false,
            };
            let bare = object
                && [
                    "properties",
                    "additionalProperties",
                    "allOf",
                    "oneOf",
                    "anyOf",
                    "$ref",
                ]
                .iter()
                .all(|k| !map.contains_key(*k));
            if bare {
                map.insert("additionalProperties".to_owned(), Value::Bool(true));
            }
            for v in map.values_mut() {
                open_bare_objects(v);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(open_bare_objects),
        _ => {}
    }
}

/// The JSON type all of `values` share, if they share one.
fn json_type(values: &[Value]) -> Option<&'static str> {
    let of = |v: &Value| match v {
        Value::Bool(_) => Some("boolean"),
        Value::Number(n) if n.is_i64() || n.is_u64() => Some("integer"),
        Value::Number(_) => Some("number"),
        Value::String(_) => Some("string"),
        _ => None,
    };
    let first = of(values.first()?)?;
    values.iter().all(|v| of(v) == Some(first)).then_some(first)
}

/// The options of every game as one typed object: each switch with the values its games allow.
fn type_options(options: &mut Value) {
    let mut properties: Map<String, Value> = Map::new();
    let mut presets: Vec<Value> = Vec::new();
    for kind in GameKind::ALL {
        let info = kind.info();
        for p in &info.presets {
            if !presets.contains(&Value::from(*p)) {
                presets.push(Value::from(*p));
            }
        }
        for (name, spec) in info.options.as_object().into_iter().flatten() {
            let values = spec["values"].as_array().cloned().unwrap_or_default();
            let entry = properties
                .entry(name.clone())
                .or_insert_with(|| json!({"enum": [], "description": spec["rules"].clone()}));
            if let Some(list) = entry["enum"].as_array_mut() {
                for v in values {
                    if !list.contains(&v) {
                        list.push(v);
                    }
                }
            }
        }
    }
    for entry in properties.values_mut() {
        let values = entry["enum"].as_array().cloned().unwrap_or_default();
        if let Some(t) = json_type(&values) {
            entry["type"] = Value::from(t);
        }
    }
    properties.insert(
        "preset".to_owned(),
        json!({"type": "string", "enum": presets, "description": "A named preset of the game's rules; the game's default when absent."}),
    );
    options["properties"] = Value::Object(properties);
    options["additionalProperties"] = Value::Bool(false);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tagged_union_gets_named_members_and_a_discriminator() {
        let doc = json!({"components": {"schemas": {"Act": {"oneOf": [
            {"type": "object", "properties": {"type": {"type": "string", "enum": ["start_extension"]}}},
            {"type": "object", "properties": {"type": {"type": "string", "enum": ["end"]}}},
        ]}}}});
        let done = finish(doc);
        let s = &done["components"]["schemas"];
        assert_eq!(
            s["Act"]["oneOf"][0]["$ref"],
            "#/components/schemas/ActStartExtension"
        );
        // A union named `...Action` drops the suffix: `MagnateAction` + `build` → `MagnateBuild`.
        let doc = json!({"components": {"schemas": {"MagnateAction": {"oneOf": [
            {"type": "object", "properties": {"type": {"type": "string", "enum": ["build"]}}},
        ]}}}});
        let done = finish(doc);
        assert_eq!(
            done["components"]["schemas"]["MagnateBuild"]["title"],
            "MagnateBuild"
        );
        assert_eq!(s["Act"]["discriminator"]["propertyName"], "type");
        assert_eq!(
            s["Act"]["discriminator"]["mapping"]["end"],
            "#/components/schemas/ActEnd"
        );
        assert_eq!(s["ActEnd"]["title"], "ActEnd");
        // A director's requests are tagged by `action`; a member keeps its own title.
        let doc = json!({"components": {"schemas": {"DirectorRequest": {"oneOf": [
            {"title": "DirectorPause", "type": "object",
             "properties": {"action": {"type": "string", "enum": ["pause"]}}},
        ]}}}});
        let done = finish(doc);
        let s = &done["components"]["schemas"];
        assert_eq!(
            s["DirectorRequest"]["discriminator"],
            json!({"propertyName": "action",
                   "mapping": {"pause": "#/components/schemas/DirectorPause"}})
        );
        assert_eq!(s["DirectorPause"]["title"], "DirectorPause");
    }

    #[test]
    fn the_clock_is_a_union_of_named_objects_and_every_option_has_its_type() {
        let doc = finish(serde_json::to_value(crate::routes::openapi()).unwrap());
        let s = &doc["components"]["schemas"];
        let members = s["Clock"]["oneOf"].as_array().unwrap();
        assert_eq!(members.len(), 3);
        assert_eq!(
            s["Clock"]["discriminator"]["mapping"]["per_move"],
            "#/components/schemas/ClockPerMove"
        );
        assert_eq!(
            s["ClockPerMove"]["allOf"][0]["$ref"],
            "#/components/schemas/ControlPerMove"
        );
        assert!(s["ClockSettings"]["properties"]["drop_after"].is_object());
        let options = &s["CreateGameRequest"]["properties"]["options"]["properties"];
        for (name, option) in options.as_object().unwrap() {
            assert!(option["type"].is_string(), "{name} has no type: {option}");
        }
        assert_eq!(options["courts"]["type"], "boolean");
        assert_eq!(
            s["GameResource"]["properties"]["outcome"]["additionalProperties"], true,
            "{}",
            s["GameResource"]["properties"]["outcome"]
        );
    }
}
