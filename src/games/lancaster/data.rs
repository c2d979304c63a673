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
    #[serde(default)]
    pub choose_start_player: bool,
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

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Majority {
    pub metric: String,
    pub tiebreak: String,
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
    pub lord_counts_at_end: bool,
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
    PARSED.as_ref().map_err(Clone::clone)
}

/// The parsed data. Setup has checked [`load`] before any game exists, so the empty fallback is
/// never seen by a game; it only spares the rules code a `Result` on every lookup.
pub fn data() -> &'static Data {
    PARSED.as_ref().unwrap_or(&EMPTY)
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
                    metric: String::new(),
                    tiebreak: String::new(),
                },
                castle: Majority {
                    metric: String::new(),
                    tiebreak: String::new(),
                },
            },
            rounds: 0,
            lord_counts_at_end: false,
        }
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

    /// Every consistency rule of the data: counts, unique ids, references that resolve.
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
        if self.game != "lancaster" {
            return Err("data.json is not Lancaster's data".into());
        }
        if self.knights.len() != 7 || self.knights.windows(2).any(|w| w.first() > w.get(1)) {
            return Err("knights: seven pieces, weakest first (DAT-KNIGHTS)".into());
        }
        if self.knights.iter().any(|s| !(1..=4).contains(s)) {
            return Err("knights: strengths are 1 to 4".into());
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
        for n in 2..=5u8 {
            let pc = self
                .player_count(n)
                .ok_or_else(|| format!("player_counts: no row for {n} players"))?;
            if pc.nobles_per_county == 0 || pc.nobles_per_county > 4 {
                return Err(format!("player_counts {n}: 1 to 4 nobles per county"));
            }
            if pc.majority.is_empty() || pc.majority.len() > 2 {
                return Err(format!("player_counts {n}: one or two majority awards"));
            }
        }
        if self.counties.len() != 9 {
            return Err("counties: there are 9 counties A-I".into());
        }
        for (i, c) in self.counties.iter().enumerate() {
            let want = char::from(b'A' + i as u8);
            if c.letter != want {
                return Err(format!("counties: row {i} is {} not {want}", c.letter));
            }
            if !(1..=4).contains(&c.min) {
                return Err(format!("county {}: minimum strength 1 to 4", c.letter));
            }
            if c.reward.take_noble != 0 {
                return Err(format!(
                    "county {}: take_noble is a favour effect",
                    c.letter
                ));
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
        if self.castle_spaces.len() != 6 || self.ally_castle_spaces.len() != 2 {
            return Err("castle: 6 spaces, ally castle: 2 spaces".into());
        }
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
        if self.favours.len() != 6 || usize::from(self.favours_per_round) != 6 {
            return Err("favours: 6 tiles, 6 per round".into());
        }
        unique("favours", self.favours.iter().map(|f| f.id.as_str()))?;
        for f in &self.favours {
            if f.effect.passage_to_france != 0 || f.effect.build_extension != 0 {
                return Err(format!("favour {}: unsupported effect", f.id));
            }
        }
        if self.conflicts.len() != 12 {
            return Err("conflicts: 12 cards".into());
        }
        unique("conflicts", self.conflicts.iter().map(|c| c.id.as_str()))?;
        for c in &self.conflicts {
            let [a, b, d] = c.pp;
            if !(a >= b && b >= d) {
                return Err(format!("conflict {}: pp1 >= pp2 >= pp3", c.id));
            }
        }
        let needed = usize::from(self.conflicts_per_round) * usize::from(self.rounds);
        if needed > self.conflicts.len() {
            return Err("conflicts: the deck is too small for the game".into());
        }
        if self.laws.len() != 18 {
            return Err("laws: 18 cards".into());
        }
        unique("laws", self.laws.iter().map(|l| l.id.as_str()))?;
        if 3 + 3 * usize::from(self.rounds) != self.laws.len() {
            return Err("laws: 3 current plus 3 proposals per round use the whole deck".into());
        }
        for (g, size) in self.law_group_sizes.iter().enumerate() {
            let n = self
                .laws
                .iter()
                .filter(|l| usize::from(l.group) == g)
                .count();
            if n != usize::from(*size) {
                return Err(format!("laws: group {g} has {n} cards, not {size}"));
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
        if self.round_table_pp.len() != 10 {
            return Err("round_table_pp: 0 to 9 nobles".into());
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
