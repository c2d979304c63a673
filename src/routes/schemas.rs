//! OpenAPI schemas of the per-game wire types. The engine stays free of utoipa (it is pure), so
//! its actions and views are described here, one type per game, gathered into `oneOf`s. A test
//! compares these property lists with what the engine actually sends.

#![expect(
    dead_code,
    reason = "these types only describe JSON for the OpenAPI document"
)]

use std::collections::BTreeMap;
use utoipa::ToSchema;

/// A Magnate card code of `rules/magnate.md` section 3 (`8VL`, `1Y`, `TMVK`, `0`, ...).
#[derive(ToSchema)]
#[schema(value_type = String, pattern = "^[0-9A-Za-z]{1,4}$", example = "8VL")]
pub struct MagnateCard(String);

/// A suit letter: `M`oons, `S`uns, `V` waves, `L`eaves, `Y` wyrms, `K`nots.
#[derive(ToSchema)]
#[schema(value_type = String, pattern = "^[MSVLYKmsvlyk]$", example = "V")]
pub struct MagnateSuit(String);

/// A district letter, `a`–`e` left to right.
#[derive(ToSchema)]
#[schema(value_type = String, pattern = "^[a-eA-E]$", example = "b")]
pub struct MagnateDistrict(String);

/// Tokens by suit letter, e.g. `{"V": 1, "L": 3}`.
#[derive(ToSchema)]
#[schema(value_type = BTreeMap<String, u16>, example = json!({"V": 1, "L": 3}))]
pub struct MagnateTokens(BTreeMap<String, u16>);

/// A Magnate action, tagged by `type` (rules/magnate.md). `notation` is optional on input and
/// present on output; `roll` is never accepted from clients.
#[derive(ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum MagnateAction {
    /// MAG-BUILD: develop a card from hand outright.
    Build {
        card: MagnateCard,
        district: MagnateDistrict,
        payment: MagnateTokens,
        #[schema(example = "B:4VL@b+V+L3")]
        notation: Option<String>,
    },
    /// MAG-DEED: buy a deed (the price is implied).
    Deed {
        card: MagnateCard,
        district: MagnateDistrict,
        notation: Option<String>,
    },
    /// MAG-SELL: sell a card from hand.
    Sell {
        card: MagnateCard,
        notation: Option<String>,
    },
    /// MAG-DEV: put tokens on one of your deeds.
    Develop {
        card: MagnateCard,
        payment: MagnateTokens,
        notation: Option<String>,
    },
    /// MAG-TRADE: three tokens to the bank for one.
    Trade {
        give: MagnateTokens,
        take: MagnateSuit,
        notation: Option<String>,
    },
    /// MAG-INC-6: your standing income preference for one of your deeds (any time, not listed in
    /// `legal_actions`).
    Prefer {
        card: MagnateCard,
        suit: MagnateSuit,
        notation: Option<String>,
    },
    /// MAG-TURN-4: draw and pass the turn.
    End {
        #[schema(example = "E")]
        notation: Option<String>,
    },
}

/// Any action given by its one-line notation alone, e.g. `{"notation": "S:6SY"}`.
#[derive(ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NotationAction {
    #[schema(min_length = 1, max_length = 200, example = "S:6SY")]
    notation: String,
}

/// An action of the game's kind: the typed object, or its notation alone.
#[derive(ToSchema)]
#[serde(untagged)]
pub enum Action {
    Magnate(MagnateAction),
    Notation(NotationAction),
    Other(OtherGameAction),
}

/// One property in a district column.
#[derive(ToSchema)]
pub struct MagnateProperty {
    card: MagnateCard,
    /// A deed (still being developed) rather than a completed property.
    deed: bool,
    tokens_on_deed: MagnateTokens,
    /// For deeds: the development target.
    target: Option<u16>,
    /// The owner's income preference: in the owner's own view only.
    prefer: Option<MagnateSuit>,
}

#[derive(ToSchema)]
pub struct MagnateDistrictView {
    district: MagnateDistrict,
    card: MagnateCard,
    /// One column per seat, bottom to top.
    columns: Vec<Vec<MagnateProperty>>,
}

#[derive(ToSchema)]
pub struct MagnatePlayer {
    crowns: Vec<MagnateCard>,
    supply: MagnateTokens,
    /// The caller's own hand only; absent for the other seats.
    hand: Option<Vec<MagnateCard>>,
    hand_count: u32,
}

#[derive(ToSchema)]
pub struct MagnateRoll {
    d10: [u8; 2],
    /// The higher die: the rank that paid income.
    hi: u8,
    d6: Option<Vec<u8>>,
    tax_suit: Option<MagnateSuit>,
    tax_suits: Option<Vec<MagnateSuit>>,
}

#[derive(ToSchema)]
pub struct MagnateTurn {
    /// The active seat.
    seat: u8,
    /// `roll`, `action` or `over`.
    phase: String,
    /// Whether the active seat has played its card this turn.
    card_played: bool,
}

#[derive(ToSchema)]
pub struct MagnateFinalTurns {
    /// Seats that still have their final turn.
    remaining: Vec<u8>,
}

/// What one seat (or a spectator) sees of a Magnate game: every public fact and the viewer's
/// own hand and preferences, never the other hand or the draw-pile order.
#[derive(ToSchema)]
pub struct MagnateView {
    /// The resolved rules in force.
    #[schema(value_type = Object)]
    rules: serde_json::Value,
    districts: Vec<MagnateDistrictView>,
    /// Indexed by seat.
    players: Vec<MagnatePlayer>,
    draw_pile_count: u32,
    /// Face up.
    discard: Vec<MagnateCard>,
    reshuffled: bool,
    last_roll: Option<MagnateRoll>,
    turn: MagnateTurn,
    final_turns: Option<MagnateFinalTurns>,
    /// District standings as if the game ended now (MAG-SCORE).
    #[schema(value_type = Object)]
    standings: serde_json::Value,
}

/// The game-specific view for the caller.
#[derive(ToSchema)]
#[serde(untagged)]
#[expect(clippy::large_enum_variant, reason = "a schema only: never built")]
pub enum GameView {
    Magnate(MagnateView),
    Other(OtherGameView),
}

/// Property names of the documented Magnate view, for the test that keeps this file honest.
pub fn magnate_view_fields() -> Vec<String> {
    use utoipa::PartialSchema;
    let schema = serde_json::to_value(MagnateView::schema()).unwrap_or_default();
    schema["properties"]
        .as_object()
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default()
}

/// The kinds of game herald hosts (the registry's list, so a new game appears by itself).
pub struct GameKindName;

impl utoipa::PartialSchema for GameKindName {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use crate::engine::registry::GameKind;
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some("A kind of game."))
            .enum_values(Some(GameKind::ALL.iter().map(|k| k.as_str())))
            .into()
    }
}

impl ToSchema for GameKindName {}

/// An action of a game whose precise schema is not documented yet (it comes with that game's
/// service support): an object with its `type` and, on output, its `notation`; see the game's
/// rules spec.
#[derive(ToSchema)]
pub struct OtherGameAction {
    #[schema(example = "place")]
    #[serde(rename = "type")]
    kind: String,
    notation: Option<String>,
}

/// The view of a game whose precise schema is not documented yet.
#[derive(ToSchema)]
pub struct OtherGameView {
    /// The resolved rules in force.
    #[schema(value_type = Object)]
    rules: serde_json::Value,
}

/// An action as the server lists it (`legal_actions`, history), with its `notation`.
#[derive(ToSchema)]
#[serde(untagged)]
pub enum GameAction {
    Magnate(MagnateAction),
    Other(OtherGameAction),
}
