//! What the API's path segments and query parameters take, read from the served OpenAPI
//! document, so that an address actix cannot read (`/games/abc`, `?limit=x`, `?status=a&status=b`)
//! is refused with a sentence naming the parameter and what it takes, as the document says: never
//! serde's wording, never the client's input (a path may be 100 kB long, or hold a token).

use actix_web::HttpRequest;
use serde_json::Value;

/// What one parameter takes.
#[derive(Debug, Clone, PartialEq)]
enum Takes {
    Uuid,
    Integer { min: Option<i64>, max: Option<i64> },
    Boolean,
    OneOf(Vec<String>),
    Text,
}

impl Takes {
    /// From a parameter's schema, its `$ref` resolved in `schemas` (the document's components).
    fn of(schema: &Value, schemas: &Value) -> Takes {
        let schema = match schema.get("$ref").and_then(Value::as_str) {
            Some(name) => name
                .strip_prefix("#/components/schemas/")
                .and_then(|name| schemas.get(name))
                .unwrap_or(&Value::Null),
            None => schema,
        };
        if let Some(values) = schema.get("enum").and_then(Value::as_array) {
            return Takes::OneOf(
                values
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect(),
            );
        }
        match schema.get("type").and_then(Value::as_str) {
            Some("integer") => Takes::Integer {
                min: schema.get("minimum").and_then(Value::as_i64),
                max: schema.get("maximum").and_then(Value::as_i64),
            },
            Some("boolean") => Takes::Boolean,
            Some("string") if schema.get("format").and_then(Value::as_str) == Some("uuid") => {
                Takes::Uuid
            }
            _ => Takes::Text,
        }
    }

    fn admits(&self, value: &str) -> bool {
        match self {
            Takes::Uuid => uuid::Uuid::try_parse(value).is_ok(),
            Takes::Integer { min, max } => value
                .parse::<i64>()
                .is_ok_and(|n| min.is_none_or(|min| n >= min) && max.is_none_or(|max| n <= max)),
            Takes::Boolean => value == "true" || value == "false",
            Takes::OneOf(values) => values.iter().any(|v| v == value),
            Takes::Text => true,
        }
    }

    fn describe(&self) -> String {
        match self {
            Takes::Uuid => "a UUID".to_owned(),
            Takes::Integer {
                min: Some(min),
                max: Some(max),
            } => format!("a number from {min} to {max}"),
            Takes::Integer {
                min: Some(min),
                max: None,
            } => format!("a whole number of at least {min}"),
            Takes::Integer {
                min: None,
                max: Some(max),
            } => format!("a whole number of at most {max}"),
            Takes::Integer {
                min: None,
                max: None,
            } => "a whole number".to_owned(),
            Takes::Boolean => "`true` or `false`".to_owned(),
            Takes::OneOf(values) => {
                let listed: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
                format!("one of {}", listed.join(", "))
            }
            Takes::Text => "text".to_owned(),
        }
    }
}

/// One operation's parameters, in the document's order.
#[derive(Debug)]
struct Operation {
    method: String,
    path: String,
    in_path: Vec<(String, Takes)>,
    in_query: Vec<(String, Takes)>,
}

/// The parameters of every operation of the document.
#[derive(Debug, Default)]
pub struct Params(Vec<Operation>);

impl Params {
    /// Reads them from the document as served.
    pub fn of(document: &Value) -> Params {
        let schemas = &document["components"]["schemas"];
        let mut operations = Vec::new();
        let Some(paths) = document.get("paths").and_then(Value::as_object) else {
            return Params(operations);
        };
        for (path, item) in paths {
            let Some(item) = item.as_object() else {
                continue;
            };
            for (method, op) in item {
                let mut in_path = Vec::new();
                let mut in_query = Vec::new();
                let listed = op.get("parameters").and_then(Value::as_array);
                for p in listed.into_iter().flatten() {
                    let (Some(name), Some(place)) = (
                        p.get("name").and_then(Value::as_str),
                        p.get("in").and_then(Value::as_str),
                    ) else {
                        continue;
                    };
                    let takes = Takes::of(p.get("schema").unwrap_or(&Value::Null), schemas);
                    match place {
                        "path" => in_path.push((name.to_owned(), takes)),
                        "query" => in_query.push((name.to_owned(), takes)),
                        _ => {}
                    }
                }
                operations.push(Operation {
                    method: method.to_ascii_uppercase(),
                    path: path.clone(),
                    in_path,
                    in_query,
                });
            }
        }
        Params(operations)
    }

    /// The operation `req` was routed to.
    fn operation(&self, req: &HttpRequest) -> Option<&Operation> {
        let pattern = req.match_pattern()?;
        self.0
            .iter()
            .find(|op| op.path == pattern && op.method == req.method().as_str())
    }

    /// Why `req`'s path names nothing: the first segment that is not what its route takes.
    pub fn path_problem(&self, req: &HttpRequest) -> String {
        let wrong = self.operation(req).and_then(|op| {
            op.in_path.iter().find(|(name, takes)| {
                req.match_info()
                    .get(name)
                    .is_some_and(|value| !takes.admits(value))
            })
        });
        match wrong {
            Some((name, takes)) => format!(
                "there is nothing here: the path segment `{name}` must be {}",
                takes.describe()
            ),
            None => "there is nothing here: a segment of the path is not what this route takes"
                .to_owned(),
        }
    }

    /// Why `req`'s query cannot be read: a parameter given more than once, or one that is not
    /// what it takes.
    pub fn query_problem(&self, req: &HttpRequest) -> String {
        let fallback = || "the query parameters are not those this route reads".to_owned();
        let Some(op) = self.operation(req) else {
            return fallback();
        };
        let pairs: Vec<(String, String)> =
            url::form_urlencoded::parse(req.query_string().as_bytes())
                .into_owned()
                .collect();
        let values = |name: &str| -> Vec<&str> {
            pairs
                .iter()
                .filter(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
                .collect()
        };
        for (name, _) in &op.in_query {
            if values(name).len() > 1 {
                return format!("the query parameter `{name}` is given more than once");
            }
        }
        for (name, takes) in &op.in_query {
            if values(name).iter().any(|v| !takes.admits(v)) {
                return format!("the query parameter `{name}` must be {}", takes.describe());
            }
        }
        let known = |name: &str| op.in_query.iter().any(|(n, _)| n == name);
        if let Some((unknown, _)) = pairs.iter().find(|(name, _)| !known(name)) {
            let reads: Vec<String> = op.in_query.iter().map(|(n, _)| format!("`{n}`")).collect();
            let reads = if reads.is_empty() {
                "none".to_owned()
            } else {
                reads.join(", ")
            };
            return format!(
                "`{}` is not a query parameter of this route; it reads {reads}",
                clipped(unknown)
            );
        }
        fallback()
    }
}

/// What a whole-number query parameter that parsed but is out of range is told: the sentence a
/// value that does not parse gets from [`Params::query_problem`], so `limit=0` and `limit=x` read
/// alike.
pub fn integer_problem(name: &str, min: Option<i64>, max: Option<i64>) -> String {
    format!(
        "the query parameter `{name}` must be {}",
        Takes::Integer { min, max }.describe()
    )
}

/// At most [`CLIPPED`] characters of what the client sent, to name it without repeating it all.
fn clipped(input: &str) -> String {
    match input.char_indices().nth(CLIPPED) {
        Some((cut, _)) => format!("{}…", &input[..cut]),
        None => input.to_owned(),
    }
}

/// The most of a client's own text a detail repeats.
const CLIPPED: usize = 40;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_schema_says_what_it_takes() {
        let schemas = json!({"Status": {"type": "string", "enum": ["open", "closed"]}});
        let cases = [
            (json!({"type": "string", "format": "uuid"}), "a UUID"),
            (
                json!({"type": "integer", "minimum": 0, "maximum": 7}),
                "a number from 0 to 7",
            ),
            (
                json!({"type": "integer", "minimum": 0}),
                "a whole number of at least 0",
            ),
            (json!({"type": "boolean"}), "`true` or `false`"),
            (
                json!({"$ref": "#/components/schemas/Status"}),
                "one of `open`, `closed`",
            ),
        ];
        for (schema, said) in cases {
            assert_eq!(Takes::of(&schema, &schemas).describe(), said, "{schema}");
        }
    }

    #[test]
    fn values_are_admitted_as_their_schema_says() {
        let seat = Takes::Integer {
            min: Some(0),
            max: Some(7),
        };
        assert!(seat.admits("7"));
        assert!(!seat.admits("8"));
        assert!(!seat.admits("abc"));
        assert!(Takes::Uuid.admits("0b6f0a0e-5d3c-4c1e-9f55-8b1f2f0c9a11"));
        assert!(!Takes::Uuid.admits("zzz"));
        assert!(!Takes::Boolean.admits("yes"));
        assert!(Takes::Text.admits("anything"));
    }
}
