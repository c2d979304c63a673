//! OpenAPI schemas of the per-game wire types. The engine stays free of utoipa (it is pure), so
//! its actions and views are described here, one type per game, gathered into unions. A test
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

/// A Lancaster place name in the data file's ids: a castle space (`K1`), a county (`A`–`I`,
/// by their letters), or a conflict card (`X05`).
#[derive(ToSchema)]
#[schema(value_type = String, pattern = "^[0-9A-Za-z]{1,4}$", example = "K1")]
pub struct LancasterId(String);

/// A Lancaster action, tagged by `type` (rules/lancaster.md, the decision points of section
/// 15). `notation` is optional on input and present on output.
#[derive(ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LancasterAction {
    /// The starting extension chosen in secret at setup.
    StartExtension {
        space: LancasterId,
        notation: Option<String>,
    },
    /// Place a court knight (or the ally's, two-player game) in a county, a castle space or a
    /// conflict, with squires.
    Place {
        #[schema(minimum = 1, maximum = 9)]
        knight: u8,
        ally: Option<bool>,
        target: LancasterId,
        squires: Option<u32>,
        #[schema(example = "P:2@F+1")]
        notation: Option<String>,
    },
    /// Take a King's favour tile.
    Favour {
        tile: LancasterId,
        notation: Option<String>,
    },
    /// A sealed parliament ballot with the voting markers committed to it. `yes: null` (`V:-`)
    /// abstains, counted for neither side, without markers: the default the game plays for a
    /// late or dropped seat, seen in histories; a player who sends it is refused (LAN-PAR-2).
    Vote {
        #[schema(required = true)]
        yes: Option<bool>,
        markers: Option<u32>,
        #[schema(example = "V:Y+2")]
        notation: Option<String>,
    },
    /// A law's exchange, repeated `times`.
    Exchange {
        times: u32,
        notation: Option<String>,
    },
    /// Upgrade a knight (`null` declines).
    Upgrade {
        #[schema(value_type = Option<String>)]
        knight: Option<String>,
        notation: Option<String>,
    },
    /// Build a castle extension.
    Build {
        space: LancasterId,
        notation: Option<String>,
    },
    /// Take a noble of a county.
    Noble {
        county: LancasterId,
        notation: Option<String>,
    },
    /// A county reward: the noble, the reward, or both for three gold.
    County {
        #[schema(value_type = String, pattern = "^(noble|reward|both)$")]
        take: String,
        notation: Option<String>,
    },
    /// The passage to France (`null` declines).
    Passage {
        card: Option<LancasterId>,
        notation: Option<String>,
    },
    /// Surrey's choice of who opens the next round.
    StartPlayer { seat: u8, notation: Option<String> },
    /// The reward option taken in a county whose data offers several (1 the first).
    Reward {
        option: u8,
        notation: Option<String>,
    },
    /// Resolve a castle space (take its reward or not).
    Castle {
        space: LancasterId,
        take: Option<bool>,
        notation: Option<String>,
    },
    /// Ransom a captured knight (`null` stops ransoming).
    Ransom {
        #[schema(value_type = Option<String>)]
        knight: Option<String>,
        notation: Option<String>,
    },
}

/// The Lancaster view for one seat (secret ballots, hidden gold and squires with three or more
/// players, deck orders: never shown). See `src/games/lancaster/view.rs` for the nested shapes.
#[derive(ToSchema)]
pub struct LancasterView {
    #[schema(value_type = Object)]
    rules: serde_json::Value,
    players: u8,
    round: u8,
    start_player: u8,
    /// Surrey's choice of who opens the next round, once made (LAN-RWC-4).
    next_start_player: Option<u8>,
    #[schema(value_type = Object)]
    step: serde_json::Value,
    #[schema(value_type = Option<Object>)]
    decision: Option<serde_json::Value>,
    pending: Vec<u8>,
    #[schema(value_type = Vec<Object>)]
    factions: Vec<serde_json::Value>,
    #[schema(value_type = Vec<Object>)]
    counties: Vec<serde_json::Value>,
    #[schema(value_type = Vec<Object>)]
    top_row: Vec<serde_json::Value>,
    #[schema(value_type = Vec<Object>)]
    bottom_row: Vec<serde_json::Value>,
    conflict_deck_count: u32,
    conflict_discard: Vec<String>,
    current_laws: Vec<String>,
    proposed_laws: Vec<Option<String>>,
    law_deck_count: u32,
    law_deck_top_group: Option<u8>,
    law_discard: Vec<String>,
    /// The King's favour tiles in this game (their `min_players` and the player count).
    favours_in_play: Vec<String>,
    favours_face_down: Vec<String>,
    conflict_knights_placed: u8,
    /// Who has voted in the current vote (contents sealed).
    voted: Vec<u8>,
    /// The viewer's own sealed ballot.
    #[schema(value_type = Option<Object>)]
    my_ballot: Option<serde_json::Value>,
    my_start_extension: Option<String>,
    #[schema(value_type = Option<Object>)]
    outcome: Option<serde_json::Value>,
}

/// A Merchants & Marauders zone id (`HAV`, `CSEA`, ...) as written in notation; in the typed
/// action JSON zones are their row numbers in the game's data file (0–16).
#[derive(ToSchema)]
#[schema(value_type = u8, example = 6)]
pub struct MerchantsZone(u8);

/// A Merchants & Marauders action, tagged by `type` (rules/merchants-and-marauders.md, the
/// decision points of Part III.2). Cargo and glory cards are numbers (0–63, 0–69), zones their
/// data rows. `notation` is optional on input and present on output.
#[derive(ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum MerchantsAction {
    /// MM-SETUP-9 / MM-DEATH-4: the sealed ship choice (`sloop` or `flute`).
    Ship {
        #[schema(value_type = String, example = "sloop")]
        ship: String,
        notation: Option<String>,
    },
    /// MM-MOVE-1: to an adjacent sea zone.
    Move {
        to: MerchantsZone,
        #[schema(example = "move SJU")]
        notation: Option<String>,
    },
    Enter {
        notation: Option<String>,
    },
    /// MM-MOVE-3: out of port, discarding the cargo over the hold.
    Leave {
        drop: Vec<u8>,
        notation: Option<String>,
    },
    /// MM-SCOUT-1: `{"kind": "merchant"}`, `{"kind": "player", "id": 2}`, `{"kind": "npc",
    /// "id": 3}`, `{"kind": "far_merchant", "id": 6}`, `{"kind": "rumor"}`, `{"kind": "mission"}`.
    Scout {
        #[schema(value_type = Object)]
        target: serde_json::Value,
        notation: Option<String>,
    },
    Port {
        notation: Option<String>,
    },
    Sell {
        cards: Vec<u8>,
        notation: Option<String>,
    },
    Buy {
        notation: Option<String>,
    },
    Take {
        cards: Vec<u8>,
        notation: Option<String>,
    },
    Yard {
        #[schema(value_type = String)]
        ship: String,
        notation: Option<String>,
    },
    Repair {
        #[schema(value_type = Vec<String>)]
        locs: Vec<String>,
        notation: Option<String>,
    },
    Modify {
        notation: Option<String>,
    },
    Weapon {
        kind: u8,
        notation: Option<String>,
    },
    Recruit {
        notation: Option<String>,
    },
    Hire {
        crew: u8,
        notation: Option<String>,
    },
    Rumor {
        notation: Option<String>,
    },
    Claim {
        notation: Option<String>,
    },
    Check {
        notation: Option<String>,
    },
    Stash {
        amount: i64,
        notation: Option<String>,
    },
    Done {
        notation: Option<String>,
    },
    /// MM-RAID-1: a nation (`ES`, `EN`, `FR`, `NL`) or `null` to let the merchant go.
    RaidAs {
        #[schema(value_type = Option<String>)]
        nation: Option<String>,
        notation: Option<String>,
    },
    Draw {
        notation: Option<String>,
    },
    Discard {
        card: u8,
        notation: Option<String>,
    },
    Swap {
        card: u8,
        notation: Option<String>,
    },
    Stop {
        notation: Option<String>,
    },
    Keep {
        cards: Vec<u8>,
        notation: Option<String>,
    },
    /// MM-NAV-4: `shoot`, `board` or `flee`; a weapon (D-WPN row) with Shoot.
    Declare {
        #[schema(value_type = String)]
        decl: String,
        weapon: Option<u8>,
        notation: Option<String>,
    },
    End {
        notation: Option<String>,
    },
    Resell {
        kind: u8,
        notation: Option<String>,
    },
    Employ {
        card: u8,
        notation: Option<String>,
    },
    /// MM-GCARD-5: a glory tactic; `cargo` for the card GLY-10 sells.
    Play {
        card: u8,
        cargo: Option<u8>,
        notation: Option<String>,
    },
    Pass {
        notation: Option<String>,
    },
    Fire {
        notation: Option<String>,
    },
    Reroll {
        die: u8,
        notation: Option<String>,
    },
    Pardon {
        #[schema(value_type = String)]
        nation: String,
        notation: Option<String>,
    },
    Redraw {
        notation: Option<String>,
    },
    /// MM-PLUN-1: `{"kind": "gold"}`, `{"kind": "cargo", "id": 12}`, ..., `{"kind": "all"}`.
    Plunder {
        #[schema(value_type = Object)]
        item: serde_json::Value,
        notation: Option<String>,
    },
    Capture {
        notation: Option<String>,
    },
    Pick {
        option: u8,
        notation: Option<String>,
    },
    Place {
        to: MerchantsZone,
        notation: Option<String>,
    },
    /// MM-GCARD-2: discard a glory card (0–69) from a hand over the limit of 4; asked of the
    /// owner even in another captain's turn.
    DiscardGlory {
        card: u8,
        notation: Option<String>,
    },
    /// MM-BUY-6: discard a cargo card you hold (0–63), face up, to make room while the hold
    /// limits what you take: a buy offer, a raid's or a naval ship's cargo to keep, a defeated
    /// captain's plunder. Listed only then; the card becomes public, the rest of the hold stays
    /// hidden.
    DiscardCargo {
        card: u8,
        #[schema(example = "discard cargo 12")]
        notation: Option<String>,
    },
    /// III.3.3: standing orders, filed at any time (also out of turn) and seen by the sender
    /// only; `[]` clears them. Each is `{"when": {"kind": "declare"} | {"kind": "window",
    /// "tw": 5} | {"kind": "hand"} | {"kind": "plunder"} | {"kind": "claim"} | {"kind":
    /// "ship"}, "if": [conditions], "then": answer}` (see `src/games/merchants/orders.rs`);
    /// notation `orders declare if attacked and hull<=1: flee; window: pass; hand: discard
    /// newest; plunder: plunder gold; claim: capture; ship: redraw`.
    Orders {
        #[schema(value_type = Vec<Object>)]
        orders: Vec<serde_json::Value>,
        notation: Option<String>,
    },
    /// III.3.4: a turn script, filed at any time and seen by the sender only; `[]` clears it.
    /// Each step is `{"if": [conditions], "do": action}` (see `src/games/merchants/script.rs`);
    /// notation `script move SJU; port; if gold>=6: buy; done`.
    Script {
        #[schema(value_type = Vec<Object>)]
        steps: Vec<serde_json::Value>,
        notation: Option<String>,
    },
}

/// The Merchants & Marauders view for one seat (III.4: other seats' cargo, glory hand, stash,
/// rumor, unrevealed captain and buy offer never shown). See `src/games/merchants/view.rs`.
#[derive(ToSchema)]
pub struct MerchantsView {
    you: Option<u8>,
    round: u32,
    first: u8,
    glory_target: u8,
    solo: Option<String>,
    #[schema(value_type = Option<Vec<String>>)]
    war: Option<serde_json::Value>,
    round_effects: Vec<String>,
    #[schema(value_type = Vec<Object>)]
    players: Vec<serde_json::Value>,
    #[schema(value_type = Vec<Object>)]
    npcs: Vec<serde_json::Value>,
    demand: Vec<Option<u8>>,
    /// Per zone (D-ZONE row).
    #[schema(value_type = Vec<MerchantsModToken>)]
    mod_tokens: Vec<serde_json::Value>,
    merchants: Vec<bool>,
    merchant_track: u32,
    missions_open: Vec<String>,
    #[schema(value_type = Object)]
    decks: serde_json::Value,
    #[schema(value_type = Option<Object>)]
    decision: Option<serde_json::Value>,
    /// The viewer's own new ship or token placement after its captain died in another's turn,
    /// before the game waits for it (III.3.9, MM-DEATH-2): the request as in `decision`, and
    /// `actions`, the answers it may send now out of turn (each as `legal_actions` lists one; they
    /// are not listed there). Absent otherwise.
    #[schema(value_type = Option<Object>)]
    rejoin: Option<serde_json::Value>,
    over: bool,
}

/// A zone's modification token (MM-YARD-5): `null` where none lies, `"hidden"` while it is
/// face-down, `{"kind": 2}` (its D-MOD row) once face-up. Each form has a title, so that
/// client generators name them rather than number them.
pub struct MerchantsModToken;

impl utoipa::PartialSchema for MerchantsModToken {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{KnownFormat, SchemaFormat, Type};
        use utoipa::openapi::{ObjectBuilder, OneOfBuilder};
        let none = ObjectBuilder::new()
            .title(Some("MerchantsModTokenNone"))
            .description(Some("No modification token in this zone."))
            .schema_type(Type::Null);
        let hidden = ObjectBuilder::new()
            .title(Some("MerchantsModTokenHidden"))
            .description(Some("A face-down token: its kind is hidden."))
            .schema_type(Type::String)
            .enum_values(Some(["hidden"]));
        let kind = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int32)))
            .minimum(Some(0))
            .description(Some("The modification's D-MOD row."));
        let face_up = ObjectBuilder::new()
            .title(Some("MerchantsModTokenFaceUp"))
            .description(Some("A face-up token."))
            .schema_type(Type::Object)
            .property("kind", kind)
            .required("kind");
        OneOfBuilder::new()
            .description(Some(
                "A zone's modification token: `null` where none lies, `\"hidden\"` while it is face-down, `{\"kind\": 2}` (its D-MOD row) once face-up.",
            ))
            .item(none)
            .item(hidden)
            .item(face_up)
            .into()
    }
}

impl ToSchema for MerchantsModToken {}

/// Any action given by its one-line notation alone, e.g. `{"notation": "S:6SY"}`.
#[derive(ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NotationAction {
    #[schema(min_length = 1, max_length = 200, example = "S:6SY")]
    notation: String,
}

/// An action of the game's kind: the typed object, or its notation alone. The game's kind
/// decides which union applies (`anyOf`: `{"type": "end"}` is an action of two games).
#[derive(ToSchema)]
#[serde(untagged)]
pub enum Action {
    Magnate(MagnateAction),
    Lancaster(LancasterAction),
    Merchants(MerchantsAction),
    Notation(NotationAction),
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
pub enum GameView {
    Magnate(MagnateView),
    Lancaster(LancasterView),
    Merchants(MerchantsView),
}

/// Property names of the documented Magnate view, for the test that keeps this file honest.
pub fn magnate_view_fields() -> Vec<String> {
    fields::<MagnateView>()
}

/// Property names of the documented Lancaster view.
pub fn lancaster_view_fields() -> Vec<String> {
    fields::<LancasterView>()
}

/// Property names of the documented Merchants & Marauders view.
pub fn merchants_view_fields() -> Vec<String> {
    fields::<MerchantsView>()
}

fn fields<T: utoipa::PartialSchema>() -> Vec<String> {
    let schema = serde_json::to_value(T::schema()).unwrap_or_default();
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

/// A whole number from `min` to `max`, for the item schemas below (utoipa takes no bounds on a
/// newtype, so they are built by hand).
fn bounded(description: &str, min: i64, max: i64, example: i64) -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::Integer)
        .description(Some(description))
        .minimum(Some(min))
        .maximum(Some(max))
        .examples([example])
        .build()
}

/// An item schema built by hand: a named component (the tuple is for its name).
macro_rules! item_schema {
    ($(#[$doc:meta])* $name:ident => $schema:expr) => {
        $(#[$doc])*
        pub struct $name;

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                $schema.into()
            }
        }

        impl ToSchema for $name {}
    };
}

item_schema!(
    /// An e-mail address as the server reads it (a mailbox, at most 254 characters).
    Email => utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .description(Some("An e-mail address."))
        .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(
            utoipa::openapi::KnownFormat::Email,
        )))
        .max_length(Some(254))
        .examples(["bruno@example.org"])
        .build()
);

item_schema!(
    /// Seconds before a deadline that a reminder comes: 1 s to 30 days, as
    /// `notifications::set_reminders` checks them.
    ReminderOffset => bounded(
        "Seconds before a deadline: 1 to 2592000 (30 days).",
        1,
        i64::from(crate::services::notifications::MAX_REMINDER_SECONDS),
        86400,
    )
);

item_schema!(
    /// A table's seats in a tables event: 3 to 5, as `Format::check` allows.
    TableSize => bounded("A table's seats: 3 to 5.", 3, 5, 4)
);

item_schema!(
    /// A seat's place in a director's result: 1 (first) to the game's seat count, at most 8
    /// (the `games.seat_count` check).
    ResultPlace => bounded("A seat's place: 1 = first; at most the number of seats.", 1, 8, 1)
);

/// The kinds of account event a webhook may subscribe to (the same list the server checks).
pub struct WebhookEventKind;

impl utoipa::PartialSchema for WebhookEventKind {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use crate::services::events::EventKind;
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some("A kind of account event."))
            .enum_values(Some(EventKind::ALL.iter().map(|k| k.as_str())))
            .into()
    }
}

impl ToSchema for WebhookEventKind {}

/// What a seat does in any game besides the game's own actions, as the history shows it.
#[derive(ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SeatAction {
    /// The seat resigned (`POST /games/{id}/resign`).
    Resign {
        #[schema(example = "resign")]
        notation: Option<String>,
    },
    /// The seat's deadline passed and the game's rule for it was applied.
    Timeout {
        #[schema(example = "timeout")]
        notation: Option<String>,
    },
}

/// An action as the server lists it (`legal_actions`, history), with its `notation`. The game's
/// kind decides which union applies (`anyOf`: `{"type": "end"}` is an action of two games).
#[derive(ToSchema)]
#[serde(untagged)]
pub enum GameAction {
    Magnate(MagnateAction),
    Lancaster(LancasterAction),
    Merchants(MerchantsAction),
    Seat(SeatAction),
}

#[cfg(test)]
mod tests {
    use crate::engine::registry::GameKind;
    use crate::engine::{Seat, Seed, Viewer};
    use serde_json::{Value, json};

    #[test]
    fn the_documented_lancaster_view_lists_every_field_the_engine_sends() {
        let rules = GameKind::parse("lancaster")
            .unwrap()
            .resolve_options(&serde_json::Value::Null)
            .unwrap();
        let (state, _) = GameKind::parse("lancaster")
            .unwrap()
            .setup(&rules, 3, &Seed([1; 32]))
            .unwrap();
        let view = state.view(Viewer::Seat(Seat(0)));
        let documented = super::lancaster_view_fields();
        for key in view.as_object().unwrap().keys() {
            assert!(
                documented.contains(key),
                "view field {key} is not in the OpenAPI schema"
            );
        }
    }

    /// Whether `value` is a form `schema` allows, for the parts of JSON Schema the view schemas
    /// use: `$ref` (into the document's components), `oneOf`, `type`, `enum`, `items`,
    /// `properties` and `required`.
    fn fits(doc: &Value, schema: &Value, value: &Value) -> bool {
        if let Some(r) = schema["$ref"].as_str() {
            let name = r.trim_start_matches("#/components/schemas/");
            return fits(doc, &doc["components"]["schemas"][name], value);
        }
        if let Some(members) = schema["oneOf"].as_array() {
            return members.iter().filter(|m| fits(doc, m, value)).count() == 1;
        }
        let of_type = |t: &str| match t {
            "null" => value.is_null(),
            "boolean" => value.is_boolean(),
            "integer" => value.is_i64() || value.is_u64(),
            "number" => value.is_number(),
            "string" => value.is_string(),
            "array" => value.is_array(),
            "object" => value.is_object(),
            _ => false,
        };
        let typed = match &schema["type"] {
            Value::String(t) => of_type(t),
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).any(of_type),
            _ => true,
        };
        let listed = schema["enum"].as_array().is_none_or(|e| e.contains(value));
        let items = match value {
            Value::Array(xs) if !schema["items"].is_null() => {
                xs.iter().all(|x| fits(doc, &schema["items"], x))
            }
            _ => true,
        };
        let props = match value {
            Value::Object(o) => {
                let mut required = schema["required"].as_array().into_iter().flatten();
                let mut properties = schema["properties"].as_object().into_iter().flatten();
                required.all(|k| k.as_str().is_some_and(|k| o.contains_key(k)))
                    && properties.all(|(k, s)| o.get(k).is_none_or(|v| fits(doc, s, v)))
            }
            _ => true,
        };
        typed && listed && items && props
    }

    #[test]
    fn every_merchants_view_field_fits_its_documented_schema_mod_tokens_of_all_three_forms() {
        use crate::engine::{Game, GameRng};
        use crate::games::merchants::state::ModToken;
        use crate::games::merchants::{Merchants, Options};
        let doc: Value = serde_json::from_str(&crate::routes::openapi_json()).unwrap();
        let rules = Merchants::resolve(&Options::default()).unwrap();
        let mut st =
            Merchants::setup(&rules, 3, &mut GameRng::from_u64(1), &mut Vec::new()).unwrap();
        // A face-up token, a face-down one and a port without one, as a game shows them.
        let tokens = [
            Some(ModToken {
                kind: 2,
                face_up: true,
            }),
            Some(ModToken {
                kind: 1,
                face_up: false,
            }),
            None,
        ];
        for (slot, t) in st.mod_tokens.iter_mut().zip(tokens) {
            *slot = t;
        }
        let view = serde_json::to_value(Merchants::view(&st, Viewer::Seat(Seat(0)))).unwrap();
        assert_eq!(
            view["mod_tokens"].as_array().unwrap().get(..3).unwrap(),
            [json!({"kind": 2}), json!("hidden"), Value::Null]
        );
        let schema = &doc["components"]["schemas"]["MerchantsView"];
        for (key, value) in view.as_object().unwrap() {
            let documented = &schema["properties"][key];
            assert!(
                fits(&doc, documented, value),
                "view field {key} = {value} does not fit its schema {documented}"
            );
        }
        assert!(fits(&doc, schema, &view));
    }

    #[test]
    fn the_documented_merchants_view_lists_every_field_the_engine_sends() {
        let kind = GameKind::parse("merchants_and_marauders").unwrap();
        let rules = kind.resolve_options(&serde_json::Value::Null).unwrap();
        let (state, _) = kind.setup(&rules, 3, &Seed([1; 32])).unwrap();
        let view = state.view(Viewer::Seat(Seat(0)));
        let documented = super::merchants_view_fields();
        for key in view.as_object().unwrap().keys() {
            assert!(
                documented.contains(key),
                "view field {key} is not in the OpenAPI schema"
            );
        }
    }
}
