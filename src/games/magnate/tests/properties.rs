//! Properties of the Magnate action readers (issue 23): the notation parser and the JSON action
//! parser (`{"type": ...}` or `{"notation": ...}`, as the API reads it) never panic on anything a
//! client can send, and every action they accept writes a notation that reads back as the same
//! action.

use super::super::action::{Action, TaxDice};
use super::super::cards::{Card, District, Suit};
use super::super::tokens::{MAX_COUNT, Tokens};
use crate::engine::registry::GameKind;
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

fn magnate() -> GameKind {
    GameKind::parse("magnate").unwrap()
}

/// Text that looks like notation often enough to reach every branch of the parser: its letters,
/// separators, digits, card codes, and now and then anything at all.
fn notation_like() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => "[BDSATPRE]:",
        3 => "[0-9]{1,5}",
        3 => "[MSVLYKmsvlyk]",
        2 => "[@+,/:]",
        2 => "[a-f]",
        2 => prop::sample::select(Card::all().map(|c| c.code().to_owned()).collect::<Vec<_>>()),
        1 => " ",
        1 => any::<char>().prop_map(String::from),
    ];
    prop_oneof![
        3 => vec(piece, 0..10).prop_map(|p| p.concat()),
        1 => any::<String>(),
    ]
}

fn suit() -> impl Strategy<Value = Suit> {
    prop::sample::select(Suit::ALL.to_vec())
}

fn card() -> impl Strategy<Value = Card> {
    prop::sample::select(Card::all().collect::<Vec<_>>())
}

fn district() -> impl Strategy<Value = District> {
    prop::sample::select(District::ALL.to_vec())
}

/// Counts up to `max`, the edges (none, one, the limit) as often as the rest.
fn count(max: u16) -> impl Strategy<Value = u16> {
    prop_oneof![Just(0), Just(1), Just(max), 0..=max]
}

fn tokens(max: u16) -> impl Strategy<Value = Tokens> {
    let counts = vec(count(max), 6).prop_map(|counts| {
        let mut t = Tokens::NONE;
        for (s, n) in Suit::ALL.into_iter().zip(counts) {
            t.set(s, n);
        }
        t
    });
    prop_oneof![1 => Just(Tokens::NONE), 4 => counts]
}

/// A die face as a client may write it: mostly a real one, sometimes zero or anything.
fn die() -> impl Strategy<Value = u8> {
    prop_oneof![Just(0), 1..=10u8, any::<u8>()]
}

/// Any action a client could describe, counts up to `max` per suit (rolls too: the referee
/// reads them).
fn action(max: u16) -> impl Strategy<Value = Action> {
    prop_oneof![
        (card(), district(), tokens(max)).prop_map(|(card, district, payment)| Action::Build {
            card,
            district,
            payment
        }),
        (card(), district()).prop_map(|(card, district)| Action::Deed { card, district }),
        card().prop_map(|card| Action::Sell { card }),
        (card(), tokens(max)).prop_map(|(card, payment)| Action::Develop { card, payment }),
        (tokens(max), suit()).prop_map(|(give, take)| Action::Trade { give, take }),
        (card(), suit()).prop_map(|(card, suit)| Action::Prefer { card, suit }),
        Just(Action::End),
        (
            [die(), die()],
            prop_oneof![
                Just(None),
                die().prop_map(|x| Some(TaxDice::One(x))),
                [die(), die()].prop_map(|f| Some(TaxDice::Two(f))),
            ]
        )
            .prop_map(|(d10, d6)| Action::Roll { d10, d6 }),
    ]
}

/// JSON of every shape, with the field names and values of actions more often than chance
/// would give them.
fn json_like() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (0u64..=u64::from(MAX_COUNT) + 2).prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        notation_like().prop_map(Value::from),
        suit().prop_map(|s| Value::from(s.to_string())),
        card().prop_map(|c| Value::from(c.code())),
        "[a-f]".prop_map(Value::from),
    ];
    let key = prop_oneof![
        prop::sample::select(vec![
            "type", "card", "district", "payment", "give", "take", "suit", "d10", "d6", "notation",
            "M", "S", "V", "L", "Y", "K",
        ])
        .prop_map(str::to_owned),
        "[a-z]{0,6}",
    ];
    let kind = prop::sample::select(vec![
        "build", "deed", "sell", "develop", "trade", "prefer", "end", "roll", "fly",
    ]);
    let value = leaf.prop_recursive(3, 24, 5, move |inner| {
        prop_oneof![
            vec(inner.clone(), 0..4).prop_map(Value::Array),
            btree_map(key.clone(), inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    });
    // Real actions, as they are and with one field spoilt, so that the readers also accept.
    let real = action(MAX_COUNT)
        .prop_map(|a| serde_json::to_value(a).unwrap_or_default())
        .boxed();
    let spoilt =
        (real.clone(), any::<prop::sample::Index>(), value.clone()).prop_map(|(mut a, i, v)| {
            if let Some(map) = a.as_object_mut()
                && !map.is_empty()
            {
                let key = map
                    .keys()
                    .nth(i.index(map.len()))
                    .cloned()
                    .unwrap_or_default();
                map.insert(key, v);
            }
            a
        });
    prop_oneof![
        real,
        spoilt,
        value.clone(),
        (
            kind,
            btree_map(
                prop::sample::select(vec![
                    "card", "district", "payment", "give", "take", "suit", "d10", "d6", "notation",
                ]),
                value,
                0..4
            )
        )
            .prop_map(|(kind, fields)| {
                let mut m: Map<String, Value> =
                    fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
                m.insert("type".to_owned(), Value::from(kind));
                Value::Object(m)
            }),
    ]
}

/// The action's notation reads back as the action itself, through the notation parser and
/// through the API's `{"notation": ...}`.
fn assert_round_trip(action: &Action) -> Result<(), TestCaseError> {
    let notation = action.to_string();
    let back: Action = notation
        .parse()
        .map_err(|e| TestCaseError::fail(format!("{notation:?} does not read back: {e}")))?;
    prop_assert_eq!(&back, action, "{}", notation);
    let api = magnate()
        .parse_action(&json!({"notation": notation}))
        .map_err(|e| TestCaseError::fail(format!("{notation:?}: {e}")))?;
    prop_assert_eq!(api.notation(), notation.clone());
    let typed = magnate()
        .parse_action(&serde_json::to_value(action).unwrap_or_default())
        .map_err(|e| TestCaseError::fail(format!("the JSON of {notation:?}: {e}")))?;
    prop_assert_eq!(typed.to_json(), api.to_json());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn any_text_reads_as_an_action_that_writes_itself_back_or_as_a_reason(text in notation_like()) {
        match text.parse::<Action>() {
            Ok(action) => assert_round_trip(&action)?,
            Err(e) => {
                prop_assert!(!e.reason.is_empty());
                // The message quotes at most 80 characters of what was sent.
                prop_assert!(e.text.chars().count() <= 80);
            }
        }
    }

    #[test]
    fn any_json_reads_as_an_action_that_writes_itself_back_or_as_a_reason(value in json_like()) {
        match magnate().parse_action(&value) {
            Ok(action) => {
                let notation = action.notation();
                let back = magnate()
                    .parse_action(&json!({"notation": notation}))
                    .map_err(|e| TestCaseError::fail(format!("{notation:?} does not read back: {e}")))?;
                prop_assert_eq!(back.to_json(), action.to_json(), "{}", value);
            }
            Err(reason) => prop_assert!(!reason.is_empty()),
        }
    }

    #[test]
    fn every_action_writes_a_notation_that_reads_back_as_itself(action in action(MAX_COUNT)) {
        assert_round_trip(&action)?;
    }

    #[test]
    fn a_payment_above_the_limit_is_refused_however_it_is_written(
        parts in vec(1u16..=MAX_COUNT, 2..4),
        s in suit(),
    ) {
        let total: u32 = parts.iter().map(|&n| u32::from(n)).sum();
        let written: Vec<String> = parts.iter().map(|n| format!("{s}{n}")).collect();
        let text = format!("B:4VL@b+{}", written.join("+"));
        let read = text.parse::<Action>();
        if total > u32::from(MAX_COUNT) {
            prop_assert!(read.is_err(), "{} read as {:?}", text, read);
        } else {
            prop_assert!(read.is_ok(), "{} refused: {:?}", text, read);
        }
    }
}
