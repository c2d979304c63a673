//! Properties of the Lancaster action readers (issue 23): the notation parser and the JSON action
//! parser (as the API reads it) never panic on anything a client can send, and every action they
//! accept writes a notation that reads back as the same action.

#[cfg(test)]
#[allow(
    clippy::module_inception,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    reason = "test code, in `lancaster::properties`, a test module of its own"
)]
mod properties {

    use super::super::action::{Action, Take};
    use super::super::data::data;
    use super::super::ids::{CardId, CountyId, FavourId, Piece, Space, Target};
    use crate::engine::Seat;
    use crate::engine::registry::GameKind;
    use proptest::collection::{btree_map, vec};
    use proptest::prelude::*;
    use serde_json::{Map, Value, json};

    fn lancaster() -> GameKind {
        GameKind::parse("lancaster").unwrap()
    }

    fn spaces() -> Vec<Space> {
        let d = data();
        let own = (0..d.castle_spaces.len()).map(|i| Space {
            ally: false,
            idx: i as u8,
        });
        let ally = (0..d.ally_castle_spaces.len()).map(|i| Space {
            ally: true,
            idx: i as u8,
        });
        own.chain(ally).collect()
    }

    /// The names of things on the table (`A`, `K3`, `AK1`, `X05`, `F2`, `1b`, `a3`).
    fn names() -> Vec<String> {
        let d = data();
        let mut out: Vec<String> = (0..9u8).map(|i| CountyId(i).to_string()).collect();
        out.extend(spaces().iter().map(ToString::to_string));
        out.extend((0..d.conflicts.len()).map(|i| CardId(i as u8).to_string()));
        out.extend((0..d.favours.len()).map(|i| FavourId(i as u8).to_string()));
        for ally in [false, true] {
            out.extend((0..d.knights.len()).map(|i| Piece { ally, idx: i as u8 }.to_string()));
        }
        out
    }

    /// Text that looks like notation often enough to reach every branch of the parser.
    fn notation_like() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            4 => "[XPFVEUBNCTSKR]:",
            3 => "[0-9]{1,4}",
            3 => prop::sample::select(names()),
            2 => "[@+-]",
            2 => "[aAYNRBKyn]",
            1 => prop::sample::select(vec!["YES", "no", "noble", "reward", "both"]).prop_map(str::to_owned),
            1 => " ",
            1 => any::<char>().prop_map(String::from),
        ];
        prop_oneof![
            3 => vec(piece, 0..8).prop_map(|p| p.concat()),
            1 => any::<String>(),
        ]
    }

    fn space() -> impl Strategy<Value = Space> {
        prop::sample::select(spaces())
    }

    fn piece() -> impl Strategy<Value = Option<Piece>> {
        let n = data().knights.len() as u8;
        prop::option::of((any::<bool>(), 0..n).prop_map(|(ally, idx)| Piece { ally, idx }))
    }

    fn target() -> impl Strategy<Value = Target> {
        let d = data();
        let conflicts = d.conflicts.len() as u8;
        prop_oneof![
            (0..9u8).prop_map(|i| Target::County(CountyId(i))),
            space().prop_map(Target::Castle),
            (0..conflicts).prop_map(|i| Target::Conflict(CardId(i))),
        ]
    }

    /// Any action a client could describe.
    fn action() -> impl Strategy<Value = Action> {
        let d = data();
        let favours = d.favours.len() as u8;
        let conflicts = d.conflicts.len() as u8;
        prop_oneof![
            space().prop_map(|space| Action::StartExtension { space }),
            (any::<u8>(), any::<bool>(), target(), any::<u32>()).prop_map(
                |(knight, ally, target, squires)| Action::Place {
                    knight,
                    ally,
                    target,
                    squires
                }
            ),
            (0..favours).prop_map(|i| Action::Favour { tile: FavourId(i) }),
            (any::<Option<bool>>(), any::<u32>())
                .prop_map(|(yes, markers)| Action::Vote { yes, markers }),
            any::<u32>().prop_map(|times| Action::Exchange { times }),
            piece().prop_map(|knight| Action::Upgrade { knight }),
            space().prop_map(|space| Action::Build { space }),
            (0..9u8).prop_map(|i| Action::Noble {
                county: CountyId(i)
            }),
            prop::sample::select(vec![Take::Noble, Take::Reward, Take::Both])
                .prop_map(|take| Action::County { take }),
            prop::option::of(0..conflicts).prop_map(|c| Action::Passage {
                card: c.map(CardId)
            }),
            any::<u8>().prop_map(|s| Action::StartPlayer { seat: Seat(s) }),
            (1..=u8::MAX).prop_map(|option| Action::Reward { option }),
            (space(), any::<bool>()).prop_map(|(space, take)| Action::Castle { space, take }),
            piece().prop_map(|knight| Action::Ransom { knight }),
        ]
    }

    /// JSON of every shape, with the field names and values of actions more often than chance
    /// would give them.
    fn json_like() -> impl Strategy<Value = Value> {
        let fields = vec![
            "space", "knight", "ally", "target", "squires", "tile", "yes", "markers", "times",
            "county", "take", "card", "seat", "notation",
        ];
        let kinds = vec![
            "start_extension",
            "place",
            "favour",
            "vote",
            "exchange",
            "upgrade",
            "build",
            "noble",
            "county",
            "passage",
            "start_player",
            "castle",
            "ransom",
            "fly",
        ];
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            (0u64..300).prop_map(Value::from),
            any::<f64>().prop_map(|f| json!(f)),
            notation_like().prop_map(Value::from),
            prop::sample::select(names()).prop_map(Value::from),
            prop::sample::select(vec!["noble", "reward", "both", "N"]).prop_map(Value::from),
        ];
        let key = prop_oneof![
            prop::sample::select(fields.clone()).prop_map(str::to_owned),
            "[a-z]{0,6}",
        ];
        let value = leaf.prop_recursive(3, 24, 5, move |inner| {
            prop_oneof![
                vec(inner.clone(), 0..4).prop_map(Value::Array),
                btree_map(key.clone(), inner, 0..5)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        });
        // Real actions, as they are and with one field spoilt, so that the readers also accept.
        let real = action()
            .prop_map(|a| serde_json::to_value(a).unwrap_or_default())
            .boxed();
        let spoilt = (real.clone(), any::<prop::sample::Index>(), value.clone()).prop_map(
            |(mut a, i, v)| {
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
            },
        );
        prop_oneof![
            real,
            spoilt,
            value.clone(),
            (
                prop::sample::select(kinds),
                btree_map(prop::sample::select(fields), value, 0..5)
            )
                .prop_map(|(kind, fields)| {
                    let mut m: Map<String, Value> =
                        fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
                    m.insert("type".to_owned(), Value::from(kind));
                    Value::Object(m)
                }),
        ]
    }

    fn assert_round_trip(action: &Action) -> Result<(), TestCaseError> {
        let notation = action.to_string();
        let back: Action = notation
            .parse()
            .map_err(|e| TestCaseError::fail(format!("{notation:?} does not read back: {e}")))?;
        prop_assert_eq!(&back, action, "{}", notation);
        let api = lancaster()
            .parse_action(&json!({"notation": notation}))
            .map_err(|e| TestCaseError::fail(format!("{notation:?}: {e}")))?;
        prop_assert_eq!(api.notation(), notation.clone());
        let typed = lancaster()
            .parse_action(&serde_json::to_value(action).unwrap())
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
                    prop_assert!(e.text.chars().count() <= 80);
                }
            }
        }

        #[test]
        fn any_json_reads_as_an_action_that_writes_itself_back_or_as_a_reason(value in json_like()) {
            match lancaster().parse_action(&value) {
                Ok(action) => {
                    let notation = action.notation();
                    let back = lancaster()
                        .parse_action(&json!({"notation": notation}))
                        .map_err(|e| TestCaseError::fail(format!("{notation:?} does not read back: {e}")))?;
                    prop_assert_eq!(back.to_json(), action.to_json(), "{}", value);
                }
                Err(reason) => prop_assert!(!reason.is_empty()),
            }
        }

        #[test]
        fn every_action_writes_a_notation_that_reads_back_as_itself(action in action()) {
            assert_round_trip(&action)?;
        }
    }
}
