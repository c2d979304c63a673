//! `/games/new`: a game of any kind, with its seat count, open seats, invitations by address or
//! display name, variant and switches, clock, and whether it is rated (design.md section 19).
//! Every kind's switches are on the page (each in its own fold), so it works without scripts:
//! the server reads the switches of the kind chosen.

use super::extract::{
    Accepts, Fields, Form, Label, PageError, Params, Repeats, SignedIn, Unfit, offered, unfit,
};
use super::i18n::t;
use super::layout::{Chrome, page, respond, see_other};
use crate::domain::{DisplayName, EmailAddress, Locale, UserId};
use crate::engine::registry::{GameKind, KindInfo};
use crate::error::ApiError;
use crate::services::accounts;
use crate::services::clocks::Clock;
use crate::services::games::{self, NewGameRequest, Submitted};
use crate::state::AppState;
use actix_web::http::StatusCode;
use actix_web::{HttpResponse, web};
use maud::{Markup, html};
use serde::Deserialize;
use serde_json::{Value, json};

/// The clocks the form offers: (form value, the clock as the API takes it). The first is the
/// default, as `POST /games` without a clock.
pub(super) fn clock_choices() -> Vec<(&'static str, Value)> {
    const DAY: i64 = 86_400;
    let per_move = |days: i64| json!({"type": "per_move", "seconds": days * DAY});
    let fischer = |start: i64, plus: i64, max: i64| json!({"type": "fischer", "initial_seconds": start * DAY, "increment_seconds": plus * DAY, "max_seconds": max * DAY});
    vec![
        ("per_move_3d", per_move(3)),
        ("per_move_1d", per_move(1)),
        ("per_move_2d", per_move(2)),
        ("per_move_5d", per_move(5)),
        ("per_move_7d", per_move(7)),
        ("per_move_14d", per_move(14)),
        ("fischer_7d_1d_14d", fischer(7, 1, 14)),
        ("fischer_14d_2d_30d", fischer(14, 2, 30)),
        ("none", json!({"type": "none"})),
    ]
}

fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The kind a form or a query names, Magnate's registry default otherwise.
fn kind_named(name: Option<&str>) -> Result<KindInfo, Unfit> {
    let mut kinds = games::kinds().into_iter();
    let found = match name.filter(|n| !n.is_empty()) {
        None => kinds.next(),
        Some(n) => kinds.find(|k| k.kind.as_str() == n),
    };
    found.ok_or_else(|| offered("game"))
}

/// One kind's variant and switches, named `preset_<kind>` and `opt_<kind>_<switch>`.
fn switches(chrome: &Chrome, k: &KindInfo, open: bool, entered: &Fields) -> Markup {
    let l = chrome.locale;
    let kind = k.kind.as_str();
    let preset = format!("preset_{kind}");
    html! {
        details open[open] {
            summary { (k.name) ": " (t(l, "preset")) ", " (t(l, "options")) }
            p {
                label for={ "new-" (preset) } { (t(l, "preset")) }
                select id={ "new-" (preset) } name=(preset) {
                    @for p in &k.presets {
                        option value=(p) selected[entered.get(&preset) == Some(*p)] { (p) }
                    }
                }
            }
            @for (name, spec) in k.options.as_object().into_iter().flatten() {
                @let field = format!("opt_{kind}_{name}");
                p {
                    label for={ "new-" (field) } { (name) " " span.muted { "(" (spec["rules"].as_str().unwrap_or("")) ")" } }
                    select id={ "new-" (field) } name=(field) {
                        option value="" { "—" }
                        @for v in spec["values"].as_array().into_iter().flatten() {
                            @let text = value_text(v);
                            option value=(text) selected[entered.get(&field) == Some(text.as_str())] { (text) }
                        }
                    }
                }
            }
        }
    }
}

/// A numbered choice with an "as the rest makes it" first option.
fn count_select(
    id: &str,
    name: &str,
    range: std::ops::RangeInclusive<u8>,
    auto: &str,
    entered: Option<&str>,
) -> Markup {
    html! {
        select id=(id) name=(name) {
            option value="" { (auto) }
            @for n in range {
                @let v = n.to_string();
                option value=(v) selected[entered == Some(v.as_str())] { (v) }
            }
        }
    }
}

fn new_game_page(chrome: &Chrome, csrf: &str, problem: Option<&str>, entered: &Fields) -> Markup {
    let l = chrome.locale;
    let kinds = games::kinds();
    let chosen = kind_named(entered.get("kind")).map_or(GameKind::ALL[0], |k| k.kind);
    let most = kinds.iter().map(|k| k.max_seats).max().unwrap_or(2);
    let fewest = kinds.iter().map(|k| k.min_seats).min().unwrap_or(2);
    let clocks = clock_choices();
    let clock_entered = entered.get("clock");
    let field = |name: &str| entered.get(name).unwrap_or("").to_owned();
    page(
        chrome,
        t(l, "new_game"),
        html! {
            h1 { (t(l, "new_game")) }
            p.kinds {
                @for k in &kinds {
                    a href={ "/games/new?kind=" (k.kind.as_str()) } { (k.name) } " "
                }
            }
            @if let Some(p) = problem { p.problem role="alert" id="problem-create" { (p) } }
            form.action method="post" action="/games/new" data-action="create" {
                input type="hidden" name="csrf" value=(csrf);
                p {
                    label for="new-kind" { (t(l, "game")) }
                    br;
                    select id="new-kind" name="kind" {
                        @for k in &kinds {
                            option value=(k.kind.as_str()) selected[k.kind == chosen] {
                                (k.name) " (" (k.min_seats) "–" (k.max_seats) ")"
                            }
                        }
                    }
                }
                p {
                    label for="new-seats" { (t(l, "seat_count")) }
                    " "
                    (count_select("new-seats", "seats", fewest..=most, t(l, "as_invited"), entered.get("seats")))
                    " "
                    label for="new-open" { (t(l, "open_to_anyone")) }
                    " "
                    (count_select("new-open", "open_seats", 0..=most.saturating_sub(1), t(l, "as_invited"), entered.get("open_seats")))
                }
                p {
                    label for="new-invite" { (t(l, "invite")) }
                    br;
                    input id="new-invite" type="text" name="invite" size="40"
                        value=(invited(entered).join(", ")) aria-describedby=[problem.map(|_| "problem-create")];
                }
                p {
                    label for="new-clock" { (t(l, "clock")) }
                    " "
                    select id="new-clock" name="clock" {
                        @for (key, value) in &clocks {
                            @if let Ok(clock) = Clock::from_request(Some(value), 0) {
                                option value=(key) selected[clock_entered == Some(*key)] {
                                    (super::clock::describe(chrome, &clock))
                                }
                            }
                        }
                    }
                }
                @for k in &kinds {
                    (switches(chrome, k, k.kind == chosen, entered))
                }
                p {
                    label {
                        input type="checkbox" name="rated" value="on" checked[field("rated") == "on"];
                        " " (t(l, "rated_game"))
                    }
                }
                p {
                    label {
                        input type="checkbox" name="spectator_chat" value="on" checked[field("spectator_chat") == "on"];
                        " " (t(l, "spectator_chat_game"))
                    }
                }
                button type="submit" { (t(l, "create")) }
            }
        },
    )
}

#[derive(Debug, Deserialize)]
pub struct KindQuery {
    kind: Option<String>,
}

/// `GET /games/new[?kind=...]`.
pub async fn new_game_form(me: SignedIn, query: Params<KindQuery>) -> HttpResponse {
    let kind = query
        .into_inner()
        .kind
        .filter(|k| kind_named(Some(k)).is_ok());
    let entered = Fields::read(kind.map(|k| ("kind", k)), &[]).unwrap_or_default();
    respond(
        StatusCode::OK,
        new_game_page(&me.chrome, &me.csrf, None, &entered),
    )
}

/// Whom the invitation field names: addresses (with an `@`) and display names, separated by
/// commas, semicolons or lines.
enum Guest {
    Address(EmailAddress),
    Name(DisplayName),
}

/// The guests `text` names, each once (the service's refusal of one given twice repeats it).
fn guests(text: &str) -> Result<Vec<Guest>, Unfit> {
    let refused = || unfit("invite", Accepts::Described("accepts_guests"));
    let mut guests: Vec<Guest> = Vec::new();
    for s in text.split([',', ';', '\n']).map(str::trim) {
        if s.is_empty() {
            continue;
        }
        let guest = if s.contains('@') {
            EmailAddress::parse(s).map(Guest::Address)
        } else {
            DisplayName::parse(s).map(Guest::Name)
        }
        .map_err(|_| refused())?;
        if guests.iter().any(|g| g.same(&guest)) {
            return Err(refused());
        }
        guests.push(guest);
    }
    Ok(guests)
}

impl Guest {
    /// Whether both name one guest (display names are found regardless of case).
    fn same(&self, other: &Guest) -> bool {
        match (self, other) {
            (Guest::Address(a), Guest::Address(b)) => a == b,
            (Guest::Name(a), Guest::Name(b)) => {
                a.as_str().to_lowercase() == b.as_str().to_lowercase()
            }
            _ => false,
        }
    }
}

/// The invitations of a form that creates a game or a competition: its `invite` field may come
/// more than once (one guest or a list in each), as the API's `invite` is a list.
pub struct Invitations;

impl Repeats for Invitations {
    const FIELDS: &'static [&'static str] = &["invite"];
}

/// Every `invite` field's text, in the order sent, the empty ones left out.
pub(super) fn invited(form: &Fields) -> Vec<&str> {
    form.all("invite")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

/// A count field (`label` its label's key): empty means "as the rest makes it".
fn count(form: &Fields, name: &str, label: &'static str) -> Result<Option<u8>, Unfit> {
    match form.get(name).map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(v) => v.parse().map(Some).map_err(|_| offered(label)),
    }
}

/// The chosen kind's options from its `preset_<kind>` and `opt_<kind>_<switch>` fields.
fn options(k: &KindInfo, form: &Fields) -> Result<Value, Unfit> {
    let kind = k.kind.as_str();
    let mut options = serde_json::Map::new();
    if let Some(p) = form
        .get(&format!("preset_{kind}"))
        .filter(|p| !p.is_empty())
    {
        // The service's refusal of a variant it does not know repeats it.
        if !k.presets.contains(&p) {
            return Err(unfit("preset", Accepts::OneOf(k.presets.clone())));
        }
        options.insert("preset".to_owned(), Value::from(p));
    }
    for (name, spec) in k.options.as_object().into_iter().flatten() {
        let Some(text) = form
            .get(&format!("opt_{kind}_{name}"))
            .filter(|v| !v.is_empty())
        else {
            continue;
        };
        let value = spec["values"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|v| value_text(v) == text)
            .ok_or_else(|| Unfit {
                label: Label::Shown(name.clone()),
                accepts: Accepts::Described("accepts_offered_choice"),
            })?;
        options.insert(name.clone(), value.clone());
    }
    Ok(Value::Object(options))
}

/// The open seats the form asks: the seat count minus the creator and the guests, or the
/// open-seats field; both given must agree.
fn open_seats(seats: Option<u8>, open: Option<u8>, guests: usize) -> Result<u8, Unfit> {
    let too_few = || unfit("seat_count", Accepts::Described("accepts_seats_for_guests"));
    let guests = u8::try_from(guests).map_err(|_| too_few())?;
    match (seats, open) {
        (None, open) => Ok(open.unwrap_or(0)),
        (Some(seats), open) => {
            let rest = seats.checked_sub(1 + guests).ok_or_else(too_few)?;
            match open {
                Some(o) if o != rest => Err(unfit(
                    "open_to_anyone",
                    Accepts::Described("accepts_open_agreeing"),
                )),
                _ => Ok(rest),
            }
        }
    }
}

/// The create request a form describes, with the display names still to find.
fn new_game_request(
    form: &Fields,
    min_clock: i64,
) -> Result<(NewGameRequest, Vec<DisplayName>), Unfit> {
    let k = kind_named(form.get("kind"))?;
    let (mut invite, mut names) = (Vec::new(), Vec::new());
    for g in guests(&invited(form).join(","))? {
        match g {
            Guest::Address(a) => invite.push(a),
            Guest::Name(n) => names.push(n),
        }
    }
    let open = open_seats(
        count(form, "seats", "seat_count")?,
        count(form, "open_seats", "open_to_anyone")?,
        invite.len() + names.len(),
    )?;
    let clock_refused = || unfit("clock", Accepts::Described("accepts_offered_clock"));
    let clock_key = form.get("clock").unwrap_or("per_move_3d");
    let clock = clock_choices()
        .into_iter()
        .find(|(key, _)| *key == clock_key)
        .ok_or_else(clock_refused)?
        .1;
    let request = NewGameRequest {
        kind: k.kind,
        options: options(&k, form)?,
        invite,
        invite_players: Vec::new(),
        open_seats: open,
        clock: Clock::from_request(Some(&clock), min_clock).map_err(|_| clock_refused())?,
        rated: form.get("rated") == Some("on"),
        spectator_chat: form.get("spectator_chat") == Some("on"),
    };
    // The game's seat range and its switches, checked last as the service checks them (its
    // sentences are English and repeat what was chosen).
    let seated = 1 + request.invite.len() + names.len() + usize::from(open);
    if !(usize::from(k.min_seats)..=usize::from(k.max_seats)).contains(&seated) {
        let seats = k.min_seats..=k.max_seats;
        return Err(unfit("seat_count", Accepts::range(&seats)));
    }
    switches_fit(&k, &request.options, seated)?;
    Ok((request, names))
}

/// Whether the chosen switches go together and with a game of `seats`. The game's refusal
/// begins with the option it names (`start_seat: ...`, in the API's words): the page names that
/// field by its label, or the switches as a whole when it is none of the form's.
fn switches_fit(k: &KindInfo, options: &Value, seats: usize) -> Result<(), Unfit> {
    let seats = u8::try_from(seats).unwrap_or(u8::MAX);
    let checked = k
        .kind
        .resolve_options(options)
        .and_then(|_| k.kind.options_fit_seats(options, seats));
    let Err(refused) = checked else {
        return Ok(());
    };
    let named = refused.0.split(':').next().unwrap_or_default();
    let label = match named {
        "preset" => Label::Key("preset"),
        switch if k.options.get(switch).is_some() => Label::Shown(switch.to_owned()),
        _ => Label::Key("options"),
    };
    Err(Unfit {
        label,
        accepts: Accepts::Described("accepts_fitting_switch"),
    })
}

/// The request with the accounts it invites by display name; `Ok(Err(_))` when a name is no
/// one's or several players', or a guest is the creator or invited already (said by the field:
/// the service's sentences repeat the name or the address, or the player's account id).
fn inviting(
    conn: &mut diesel::PgConnection,
    creator: UserId,
    mut request: NewGameRequest,
    names: &[DisplayName],
) -> Result<Result<NewGameRequest, Unfit>, ApiError> {
    let refused = || unfit("invite", Accepts::Described("accepts_guests"));
    let own = accounts::get(conn, creator)?.email;
    if request.invite.iter().any(|a| a.as_str() == own.as_str()) {
        return Ok(Err(refused()));
    }
    for name in names {
        match accounts::by_display_name(conn, name.as_str()) {
            Ok(player) if player == creator => return Ok(Err(refused())),
            // One player twice: by address and by name, or by two names the page told apart
            // (the service's refusal names the player by their account's id).
            Ok(player) if invited_already(conn, &request, player)? => return Ok(Err(refused())),
            Ok(player) => request.invite_players.push(player),
            Err(ApiError::Validation(_)) => {
                return Ok(Err(unfit(
                    "invite",
                    Accepts::Described("accepts_known_names"),
                )));
            }
            Err(e) => return Err(e),
        }
    }
    Ok(Ok(request))
}

/// Whether `player` is among the request's guests already, by account or by address (compared
/// as the service compares them).
fn invited_already(
    conn: &mut diesel::PgConnection,
    request: &NewGameRequest,
    player: UserId,
) -> Result<bool, ApiError> {
    if request.invite_players.contains(&player) {
        return Ok(true);
    }
    let address = accounts::get(conn, player)?.email;
    Ok(request
        .invite
        .iter()
        .any(|a| a.as_str() == address.as_str()))
}

/// `POST /games/new`: creates the game; a refusal shows the form again with the reason.
pub async fn create_game(
    state: web::Data<AppState>,
    me: SignedIn,
    form: Form<Invitations>,
) -> Result<HttpResponse, PageError> {
    let form = form.into_inner();
    let refuse = |text: &str| {
        let body = new_game_page(&me.chrome, &me.csrf, Some(text), &form);
        Ok(respond(StatusCode::UNPROCESSABLE_ENTITY, body))
    };
    if me.check_csrf(&state, form.get("csrf"), "").is_err() {
        return refuse(t(me.chrome.locale, "csrf"));
    }
    let min = state.settings.games.clock_min_seconds;
    let l = me.chrome.locale;
    let (request, names) = match new_game_request(&form, min) {
        Ok(r) => r,
        Err(refusal) => return refuse(&refusal.sentence(l)),
    };
    let user = me.user;
    let created = crate::db::run(&state.pool, move |conn| {
        match inviting(conn, user, request, &names)? {
            Ok(request) => games::create(conn, user, request, None).map(Ok),
            Err(refusal) => Ok(Err(refusal)),
        }
    });
    match created.await.map_err(ApiError::from) {
        Ok(Ok(Submitted::Fresh(g))) => Ok(see_other(&format!("/play/{}", g.id))),
        Ok(Ok(_)) => Ok(see_other("/games")),
        Ok(Err(refusal)) => refuse(&refusal.sentence(l)),
        Err(ApiError::Validation(_)) => refuse(&not_taken(l, user, "game")),
        Err(e) => Err(PageError::api(&me.chrome, &e)),
    }
}

/// A create form that the page took and its service refused: the service's sentence is English
/// and may name a player by their account's id, so the reader is told only that the form was
/// not taken; the log says a check of the page is missing (by id, never what was typed).
pub(super) fn not_taken(l: Locale, user: UserId, form: &str) -> String {
    tracing::warn!(user.id = %user, form, "the service refused a create form the page took");
    t(l, "form_not_taken").to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seat_count_and_the_open_seats_must_agree() {
        assert_eq!(open_seats(None, None, 1), Ok(0));
        assert_eq!(open_seats(Some(3), None, 1), Ok(1));
        assert_eq!(open_seats(Some(3), Some(1), 1), Ok(1));
        assert!(open_seats(Some(3), Some(2), 1).is_err());
        assert!(open_seats(Some(2), None, 2).is_err());
        assert_eq!(open_seats(None, Some(2), 0), Ok(2));
    }

    #[test]
    fn guests_are_addresses_or_display_names() {
        let g = guests("ada@example.org, Zephyrine Quill;\nbob@example.org").unwrap();
        assert!(matches!(&g[0], Guest::Address(a) if a.as_str() == "ada@example.org"));
        assert!(matches!(&g[1], Guest::Name(n) if n.as_str() == "Zephyrine Quill"));
        assert_eq!(g.len(), 3);
        assert!(guests("not@an@address").is_err());
    }

    #[test]
    fn every_offered_clock_is_a_valid_clock() {
        for (key, value) in clock_choices() {
            assert!(Clock::from_request(Some(&value), 3600).is_ok(), "{key}");
        }
    }
}
