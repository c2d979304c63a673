//! The game data (spec section 13, `DAT-*`), embedded from `data.json` and parsed once into typed
//! structures. Replacing a placeholder row of the spec means editing `data.json` only; the
//! consistency test below checks counts, unique ids and every reference.

use serde::Deserialize;
use std::sync::LazyLock;

/// Gold, squires, voting markers and power points: an amount of each (LAN-EFF-1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Res {
    pub gold: u32,
    pub squires: u32,
    pub voting_markers: u32,
    pub pp: u32,
}

impl Res {
    pub fn is_zero(&self) -> bool {
        *self == Res::default()
    }
}

/// An effect of the common vocabulary (LAN-EFF): gains plus counted actions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Effect {
    pub gain: Res,
    pub recruit: u8,
    pub upgrade: u8,
    /// The upgrade must pick a deployed knight (L01, L10).
    pub deployed_only: bool,
    /// The upgrade may pick only a knight of this strength (L10's swap 3 for 4).
    pub only_strength: Option<u8>,
    pub build_extension: u8,
    pub passage_to_france: u8,
    /// `take_noble(any)`: the number of nobles of a free choice of letter (F1).
    pub take_noble: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerCount {
    pub players: u8,
    pub nobles_per_county: u8,
    pub screens: bool,
    pub majority: Vec<u32>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct County {
    pub letter: char,
    pub name: String,
    pub min: u8,
    pub reward: Effect,
    /// When not empty, the county's reward is one of these, chosen by the occupant when they
    /// take it, and `reward` must be empty. Surrey's reward is open (S1's example: "Como
    /// recompensa elige dos escuderos y dos monedas de oro"): the spec reads one fixed reward.
    #[serde(default)]
    pub reward_options: Vec<Effect>,
    #[serde(default)]
    pub choose_start_player: bool,
}

impl County {
    /// The rewards the occupant may take (LAN-RWC-2 (b)): the one reward, or its options.
    pub fn rewards(&self) -> &[Effect] {
        if self.reward_options.is_empty() {
            std::slice::from_ref(&self.reward)
        } else {
            &self.reward_options
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CastleSpace {
    pub id: String,
    #[serde(default)]
    pub cost: Res,
    pub effect: Effect,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundTableVm {
    pub per_noble: u32,
    pub lord: u32,
    pub skip_round: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Favour {
    pub id: String,
    pub effect: Effect,
    pub min_players: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConflictCard {
    pub id: String,
    pub france: u32,
    pub pp: [u32; 3],
    pub min_players: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LawKind {
    Majority,
    PerN,
    Exchange,
    Condition,
    PerSet,
}

/// What a law counts (LAN-LAW-2: deployed means on a county, castle or conflict space).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    Gold,
    Squires,
    CountiesOccupied,
    ConflictsInvolved,
    #[serde(rename = "deployed_strength_2")]
    DeployedStrength2,
    ExtensionsBuilt,
    NobleTiles,
    #[serde(rename = "deployed_sets_1234")]
    DeployedSets1234,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cond {
    #[serde(rename = "no_deployed_strength_2")]
    NoDeployedStrength2,
    #[serde(rename = "deployed_strength_3")]
    DeployedStrength3,
    #[serde(rename = "all_three_strength_1_deployed")]
    AllThreeStrength1Deployed,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Law {
    pub id: String,
    pub group: u8,
    pub kind: LawKind,
    #[serde(default)]
    pub metric: Option<Metric>,
    #[serde(default)]
    pub n: Option<u32>,
    /// At most this many times (L18: one set per player).
    #[serde(default)]
    pub max: Option<u32>,
    #[serde(default)]
    pub cond: Option<Cond>,
    #[serde(default)]
    pub effect: Effect,
    #[serde(default)]
    pub give: Res,
    #[serde(default)]
    pub get: Res,
}

/// A quantity of a player's at the end of the game, for the majorities (LAN-FIN-1/2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quantity {
    /// The total strength of the knights not in the reserve (court or board).
    StrengthNotInReserve,
    ExtensionsBuilt,
    Squires,
    Gold,
    NobleTiles,
    /// No quantity: as a tie-break, every tie survives it.
    None,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Majority {
    pub metric: Quantity,
    pub tiebreak: Quantity,
}

/// The number of each component in the box (DAT-COMPONENTS) that the rules count on: the data's
/// lists must have exactly these lengths.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Components {
    pub knights_per_colour: u8,
    pub nobles_per_letter: u8,
    pub counties: u8,
    pub castle_spaces: u8,
    pub ally_castle_spaces: u8,
    pub favour_tiles: u8,
    pub conflict_cards: u8,
    /// Knight spaces on each conflict card (LAN-CNF-1).
    pub conflict_spaces: u8,
    pub law_cards: u8,
    /// Current laws on the parliament board, and proposals revealed each round (LAN-CMP-2).
    pub current_laws: u8,
    pub proposals_per_round: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Majorities {
    pub knighthood: Majority,
    pub castle: Majority,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Start {
    pub gold: u32,
    pub squires: u32,
    pub voting_markers: u32,
}

/// All of `data.json`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Data {
    pub game: String,
    pub version: String,
    pub provenance: String,
    /// The strength of each of a colour's seven knight pieces, weakest first (DAT-KNIGHTS).
    pub knights: Vec<u8>,
    pub start_court: Vec<u8>,
    pub ally_start_court: Vec<u8>,
    pub start: Start,
    pub player_counts: Vec<PlayerCount>,
    pub counties: Vec<County>,
    pub county_both_cost: Res,
    pub castle_spaces: Vec<CastleSpace>,
    pub ally_castle_spaces: Vec<CastleSpace>,
    pub round_table_vm: RoundTableVm,
    pub favours: Vec<Favour>,
    pub favours_per_round: u8,
    pub conflicts: Vec<ConflictCard>,
    pub conflicts_per_round: u8,
    pub law_group_sizes: Vec<u8>,
    pub laws: Vec<Law>,
    pub round_table_pp: Vec<u32>,
    pub majorities: Majorities,
    pub rounds: u8,
    /// LAN-FIN-4 (§14 Q11): whether the castle lord counts as a seat of the round table at the
    /// final scoring (it always counts for voting markers, LAN-RWK-3).
    pub lord_counts_at_end: bool,
    pub components: Components,
    /// LAN-CAS-2 [I]: a built extension tile covers its castle space, so no knight may go there.
    /// When false, a knight may, and the knight and the tile each pay the space.
    pub extension_covers_space: bool,
    /// The player count whose favour tiles and conflict cards (their `min_players`) a two-player
    /// game uses. The spec filters by 2; S1 plays the two-player game "con las reglas para 4
    /// jugadores", which would read 4.
    pub two_player_cards_as: u8,
}

const RAW: &str = include_str!("data.json");

static PARSED: LazyLock<Result<Data, String>> = LazyLock::new(|| {
    let data: Data = serde_json::from_str(RAW).map_err(|e| format!("data.json: {e}"))?;
    data.check()?;
    Ok(data)
});

static EMPTY: LazyLock<Data> = LazyLock::new(Data::empty);

/// The parsed data, or why it cannot be used (setup refuses to start a game then).
pub fn load() -> Result<&'static Data, String> {
    #[cfg(test)]
    if let Some(d) = OVERRIDE.with(std::cell::Cell::get) {
        return Ok(d);
    }
    PARSED.as_ref().map_err(Clone::clone)
}

/// The parsed data. Setup has checked [`load`] before any game exists, so the empty fallback is
/// never seen by a game; it only spares the rules code a `Result` on every lookup.
pub fn data() -> &'static Data {
    #[cfg(test)]
    if let Some(d) = OVERRIDE.with(std::cell::Cell::get) {
        return d;
    }
    PARSED.as_ref().unwrap_or(&EMPTY)
}

#[cfg(test)]
thread_local! {
    static OVERRIDE: std::cell::Cell<Option<&'static Data>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with `d` in place of the embedded data, on this thread only: a test flips a data
/// field and watches the engine obey it. The copy must pass [`Data::check`].
#[cfg(test)]
pub fn with_data<R>(d: Data, f: impl FnOnce() -> R) -> R {
    if let Err(e) = d.check() {
        panic!("the test copy of the data is inconsistent: {e}");
    }
    let leaked: &'static Data = Box::leak(Box::new(d));
    let before = OVERRIDE.with(|o| o.replace(Some(leaked)));
    struct Restore(Option<&'static Data>);
    impl Drop for Restore {
        fn drop(&mut self) {
            OVERRIDE.with(|o| o.set(self.0));
        }
    }
    let _restore = Restore(before);
    f()
}

impl Data {
    fn empty() -> Data {
        Data {
            game: String::new(),
            version: String::new(),
            provenance: String::new(),
            knights: Vec::new(),
            start_court: Vec::new(),
            ally_start_court: Vec::new(),
            start: Start {
                gold: 0,
                squires: 0,
                voting_markers: 0,
            },
            player_counts: Vec::new(),
            counties: Vec::new(),
            county_both_cost: Res::default(),
            castle_spaces: Vec::new(),
            ally_castle_spaces: Vec::new(),
            round_table_vm: RoundTableVm {
                per_noble: 0,
                lord: 0,
                skip_round: 0,
            },
            favours: Vec::new(),
            favours_per_round: 0,
            conflicts: Vec::new(),
            conflicts_per_round: 0,
            law_group_sizes: Vec::new(),
            laws: Vec::new(),
            round_table_pp: Vec::new(),
            majorities: Majorities {
                knighthood: Majority {
                    metric: Quantity::None,
                    tiebreak: Quantity::None,
                },
                castle: Majority {
                    metric: Quantity::None,
                    tiebreak: Quantity::None,
                },
            },
            rounds: 0,
            lord_counts_at_end: false,
            components: Components {
                knights_per_colour: 0,
                nobles_per_letter: 0,
                counties: 0,
                castle_spaces: 0,
                ally_castle_spaces: 0,
                favour_tiles: 0,
                conflict_cards: 0,
                conflict_spaces: 0,
                law_cards: 0,
                current_laws: 0,
                proposals_per_round: 0,
            },
            extension_covers_space: true,
            two_player_cards_as: 2,
        }
    }

    /// The player count that picks the favour tiles and conflict cards of a `players` game.
    pub fn card_players(&self, players: u8) -> u8 {
        if players == 2 {
            self.two_player_cards_as
        } else {
            players
        }
    }

    /// The King's favour tiles in a `players` game (DAT-FAVOURS `min_players`), by index.
    pub fn favours_in_play(&self, players: u8) -> impl Iterator<Item = u8> + '_ {
        let n = self.card_players(players);
        self.favours
            .iter()
            .enumerate()
            .filter(move |(_, f)| f.min_players <= n)
            .map(|(i, _)| i as u8)
    }

    /// The conflict cards in a `players` game (DAT-CONFLICTS `min_players`), by index.
    pub fn conflicts_in_play(&self, players: u8) -> impl Iterator<Item = u8> + '_ {
        let n = self.card_players(players);
        self.conflicts
            .iter()
            .enumerate()
            .filter(move |(_, c)| c.min_players <= n)
            .map(|(i, _)| i as u8)
    }

    /// Knight spaces on a conflict card.
    pub fn conflict_spaces(&self) -> usize {
        usize::from(self.components.conflict_spaces)
    }

    pub fn player_count(&self, players: u8) -> Option<&PlayerCount> {
        self.player_counts.iter().find(|p| p.players == players)
    }

    pub fn county(&self, i: usize) -> Option<&County> {
        self.counties.get(i)
    }

    pub fn law(&self, i: usize) -> Option<&Law> {
        self.laws.get(i)
    }

    pub fn conflict(&self, i: usize) -> Option<&ConflictCard> {
        self.conflicts.get(i)
    }

    pub fn space(&self, ally: bool, i: usize) -> Option<&CastleSpace> {
        if ally {
            self.ally_castle_spaces.get(i)
        } else {
            self.castle_spaces.get(i)
        }
    }

    /// The strength of knight piece `i`.
    pub fn strength(&self, i: usize) -> u8 {
        self.knights.get(i).copied().unwrap_or(0)
    }

    /// Every consistency rule of the data: counts (against `components`), unique ids, references
    /// that resolve, and the shapes the rules code relies on.
    pub fn check(&self) -> Result<(), String> {
        fn unique<'a>(what: &str, ids: impl Iterator<Item = &'a str>) -> Result<(), String> {
            let mut seen: Vec<&str> = Vec::new();
            for id in ids {
                if seen.contains(&id) {
                    return Err(format!("{what}: id {id} appears twice"));
                }
                seen.push(id);
            }
            Ok(())
        }
        fn count(what: &str, have: usize, want: u8) -> Result<(), String> {
            if have == usize::from(want) {
                Ok(())
            } else {
                Err(format!(
                    "{what}: {have} in the data, {want} in components (DAT-COMPONENTS)"
                ))
            }
        }
        let n = &self.components;
        if self.game != "lancaster" {
            return Err("data.json is not Lancaster's data".into());
        }
        count("knights", self.knights.len(), n.knights_per_colour)?;
        if self.knights.windows(2).any(|w| w.first() > w.get(1)) {
            return Err("knights: weakest first (DAT-KNIGHTS)".into());
        }
        // An upgrade swaps strength s for s + 1 (LAN-EFF-3): strengths start at 1, no gaps.
        if self.knights.first() != Some(&1)
            || self
                .knights
                .windows(2)
                .any(|w| matches!(w, [a, b] if *b > a.saturating_add(1)))
        {
            return Err("knights: strengths run from 1 up without gaps".into());
        }
        for court in [&self.start_court, &self.ally_start_court] {
            for s in court {
                let have = self.knights.iter().filter(|k| *k == s).count();
                let want = court.iter().filter(|k| *k == s).count();
                if want > have {
                    return Err(format!(
                        "start court: more strength-{s} knights than pieces"
                    ));
                }
            }
        }
        let seats = <super::Lancaster as crate::engine::Game>::MIN_SEATS
            ..=<super::Lancaster as crate::engine::Game>::MAX_SEATS;
        for p in seats.clone() {
            let pc = self
                .player_count(p)
                .ok_or_else(|| format!("player_counts: no row for {p} players"))?;
            if pc.nobles_per_county == 0 || pc.nobles_per_county > n.nobles_per_letter {
                return Err(format!(
                    "player_counts {p}: 1 to {} nobles per county",
                    n.nobles_per_letter
                ));
            }
            // Final scoring pays a first and at most a second place (LAN-FIN-1..3).
            if pc.majority.is_empty() || pc.majority.len() > 2 {
                return Err(format!("player_counts {p}: one or two majority awards"));
            }
            let needed = usize::from(self.conflicts_per_round) * usize::from(self.rounds);
            if self.conflicts_in_play(p).count() < needed {
                return Err(format!(
                    "conflicts: the deck for {p} players is too small for the game"
                ));
            }
            if self.favours_in_play(p).next().is_none() {
                return Err(format!("favours: no tile in play for {p} players"));
            }
        }
        if !seats.contains(&self.two_player_cards_as) {
            return Err("two_player_cards_as: a player count of the game".into());
        }
        count("counties", self.counties.len(), n.counties)?;
        for (i, c) in self.counties.iter().enumerate() {
            let want = char::from(b'A'.saturating_add(i as u8));
            if c.letter != want {
                return Err(format!("counties: row {i} is {} not {want}", c.letter));
            }
            let strongest = self.knights.last().copied().unwrap_or(0);
            if !(1..=strongest).contains(&c.min) {
                return Err(format!(
                    "county {}: minimum strength 1 to {strongest}",
                    c.letter
                ));
            }
            if !c.reward_options.is_empty() && c.reward != Effect::default() {
                return Err(format!(
                    "county {}: a reward or reward options, not both",
                    c.letter
                ));
            }
            if c.rewards().iter().any(|r| r.take_noble != 0) {
                return Err(format!(
                    "county {}: take_noble is a favour effect",
                    c.letter
                ));
            }
            if c.reward_options.len() > usize::from(u8::MAX) {
                return Err(format!("county {}: too many reward options", c.letter));
            }
        }
        if self
            .counties
            .iter()
            .filter(|c| c.choose_start_player)
            .count()
            != 1
        {
            return Err("counties: exactly one county (Surrey) chooses the start player".into());
        }
        count("castle spaces", self.castle_spaces.len(), n.castle_spaces)?;
        count(
            "ally castle spaces",
            self.ally_castle_spaces.len(),
            n.ally_castle_spaces,
        )?;
        unique(
            "castle spaces",
            self.castle_spaces
                .iter()
                .chain(&self.ally_castle_spaces)
                .map(|s| s.id.as_str()),
        )?;
        for s in self.castle_spaces.iter().chain(&self.ally_castle_spaces) {
            if s.effect.passage_to_france != 0 || s.effect.take_noble != 0 {
                return Err(format!("castle space {}: unsupported effect", s.id));
            }
        }
        count("favours", self.favours.len(), n.favour_tiles)?;
        if self.favours_per_round == 0 {
            return Err("favours_per_round: at least one".into());
        }
        unique("favours", self.favours.iter().map(|f| f.id.as_str()))?;
        for f in &self.favours {
            if f.effect.passage_to_france != 0 || f.effect.build_extension != 0 {
                return Err(format!("favour {}: unsupported effect", f.id));
            }
        }
        count("conflicts", self.conflicts.len(), n.conflict_cards)?;
        if n.conflict_spaces == 0 {
            return Err("components: a conflict card has knight spaces".into());
        }
        unique("conflicts", self.conflicts.iter().map(|c| c.id.as_str()))?;
        for c in &self.conflicts {
            let [a, b, d] = c.pp;
            if !(a >= b && b >= d) {
                return Err(format!("conflict {}: pp1 >= pp2 >= pp3", c.id));
            }
        }
        count("laws", self.laws.len(), n.law_cards)?;
        unique("laws", self.laws.iter().map(|l| l.id.as_str()))?;
        let used = usize::from(n.current_laws)
            + usize::from(n.proposals_per_round) * usize::from(self.rounds);
        if used != self.laws.len() {
            return Err(format!(
                "laws: {} current plus {} proposals per round use the whole deck of {}",
                n.current_laws,
                n.proposals_per_round,
                self.laws.len()
            ));
        }
        for (g, size) in self.law_group_sizes.iter().enumerate() {
            let count = self
                .laws
                .iter()
                .filter(|l| usize::from(l.group) == g)
                .count();
            if count != usize::from(*size) {
                return Err(format!("laws: group {g} has {count} cards, not {size}"));
            }
        }
        for l in &self.laws {
            if usize::from(l.group) >= self.law_group_sizes.len() {
                return Err(format!("law {}: no group {}", l.id, l.group));
            }
            let ok = match l.kind {
                LawKind::Majority => l.metric.is_some(),
                LawKind::PerN | LawKind::PerSet => l.metric.is_some() && l.n.unwrap_or(0) > 0,
                LawKind::Exchange => !l.give.is_zero() && !l.get.is_zero(),
                LawKind::Condition => l.cond.is_some(),
            };
            if !ok {
                return Err(format!("law {}: fields missing for its kind", l.id));
            }
            if l.effect.passage_to_france != 0 || l.effect.take_noble != 0 {
                return Err(format!("law {}: unsupported effect", l.id));
            }
        }
        // Round-table seats at the end: one per noble letter, plus the lord if it counts.
        let seats_at_table = self.counties.len() + usize::from(self.lord_counts_at_end);
        if self.round_table_pp.len() != seats_at_table + 1 {
            return Err(format!(
                "round_table_pp: one value for 0 to {seats_at_table} seats taken"
            ));
        }
        for (what, m) in [
            ("knighthood", &self.majorities.knighthood),
            ("castle", &self.majorities.castle),
        ] {
            if m.metric == Quantity::None {
                return Err(format!("majorities {what}: a metric is needed"));
            }
        }
        if self.rounds == 0 {
            return Err("rounds: at least one".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_data_parses_and_is_consistent() {
        let d = load().unwrap();
        assert_eq!(d.counties.len(), 9);
        assert_eq!(d.counties.get(8).unwrap().name, "Surrey");
        assert_eq!(d.knights.iter().map(|k| u32::from(*k)).sum::<u32>(), 14);
        assert!(d.provenance.contains("lancaster.md"));
    }

    #[test]
    fn inconsistent_data_is_refused_with_a_reason() {
        let mut d = load().unwrap().clone();
        d.laws.pop();
        assert!(d.check().unwrap_err().contains("18"));
        let mut d = load().unwrap().clone();
        if let Some(c) = d.conflicts.get_mut(1) {
            c.id = "X01".into();
        }
        assert!(d.check().unwrap_err().contains("twice"));
        let mut d = load().unwrap().clone();
        if let Some(l) = d.laws.get_mut(0) {
            l.group = 4;
        }
        assert!(d.check().unwrap_err().contains("group"));
    }
}
