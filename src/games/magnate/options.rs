//! Rules variants as data (MAG-OPT, spec section 14): the switches, the five presets, and their
//! resolution into the complete [`Rules`] a game stores and shows.

use crate::engine::{OptionsError, Switch, SwitchValue};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AceDeed {
    One,
    TwoSame,
    Forbidden,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForbidAllow {
    Forbid,
    Allow,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AceScoring {
    SuitCount,
    Flat,
    Deucey,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TradeRule {
    ThreeSame,
    AnyThree,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TiebreakTotal {
    Scored,
    Raw,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DistrictCards {
    Pawns,
    Courts,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AutoPick {
    Fewer,
    Ap,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StartPlayer {
    Random,
    HostChooses,
    FirstSeat,
}

/// Every option resolved: what a game stores, shows, and plays by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// The preset these values started from (switches may have changed some).
    pub preset: String,
    pub courts: bool,
    pub ace_build_cost: u8,
    pub ace_deed: AceDeed,
    pub deed_on_two: ForbidAllow,
    pub deed_dev_each_suit: bool,
    pub ace_scoring: AceScoring,
    pub trade: TradeRule,
    pub trade_same_suit: ForbidAllow,
    pub tiebreak_total: TiebreakTotal,
    pub tax_dice: u8,
    pub district_cards: DistrictCards,
    pub auto_pick: AutoPick,
    pub start_player: StartPlayer,
    /// With `start_player = host_chooses`: the seat the host (seat 0, the creator) chose.
    pub start_seat: u8,
}

/// Options as a client gives them: a preset and any switches, all optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub courts: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ace_build_cost: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ace_deed: Option<AceDeed>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deed_on_two: Option<ForbidAllow>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deed_dev_each_suit: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ace_scoring: Option<AceScoring>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trade: Option<TradeRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trade_same_suit: Option<ForbidAllow>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tiebreak_total: Option<TiebreakTotal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tax_dice: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub district_cards: Option<DistrictCards>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_pick: Option<AutoPick>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_player: Option<StartPlayer>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_seat: Option<u8>,
}

/// The switches over a preset, as `/game-kinds` lists them and `resolve` accepts them.
pub const SWITCHES: &[Switch] = &[
    Switch {
        name: "courts",
        values: &[SwitchValue::Bool(false), SwitchValue::Bool(true)],
        rules: "MAG-COURT",
    },
    Switch {
        name: "ace_build_cost",
        values: &[SwitchValue::Number(3), SwitchValue::Number(1)],
        rules: "MAG-BUILD-1, MAG-DEV-3",
    },
    Switch {
        name: "ace_deed",
        values: &[
            SwitchValue::Text("one"),
            SwitchValue::Text("two_same"),
            SwitchValue::Text("forbidden"),
        ],
        rules: "MAG-DEED-2",
    },
    Switch {
        name: "deed_on_two",
        values: &[SwitchValue::Text("forbid"), SwitchValue::Text("allow")],
        rules: "MAG-DEED-3",
    },
    Switch {
        name: "deed_dev_each_suit",
        values: &[SwitchValue::Bool(false), SwitchValue::Bool(true)],
        rules: "MAG-DEV-7",
    },
    Switch {
        name: "ace_scoring",
        values: &[
            SwitchValue::Text("suit_count"),
            SwitchValue::Text("flat"),
            SwitchValue::Text("deucey"),
        ],
        rules: "MAG-SCORE-2",
    },
    Switch {
        name: "trade",
        values: &[
            SwitchValue::Text("three_same"),
            SwitchValue::Text("any_three"),
        ],
        rules: "MAG-TRADE-2",
    },
    Switch {
        name: "trade_same_suit",
        values: &[SwitchValue::Text("forbid"), SwitchValue::Text("allow")],
        rules: "MAG-TRADE-3",
    },
    Switch {
        name: "tiebreak_total",
        values: &[SwitchValue::Text("scored"), SwitchValue::Text("raw")],
        rules: "MAG-TIE-1",
    },
    Switch {
        name: "tax_dice",
        values: &[SwitchValue::Number(1), SwitchValue::Number(2)],
        rules: "MAG-TAX-5",
    },
    Switch {
        name: "district_cards",
        values: &[SwitchValue::Text("pawns"), SwitchValue::Text("courts")],
        rules: "MAG-COURT-8",
    },
    Switch {
        name: "auto_pick",
        values: &[SwitchValue::Text("fewer"), SwitchValue::Text("ap")],
        rules: "MAG-INC-6",
    },
    Switch {
        name: "start_player",
        values: &[
            SwitchValue::Text("random"),
            SwitchValue::Text("host_chooses"),
            SwitchValue::Text("first_seat"),
        ],
        rules: "MAG-SETUP-5",
    },
    Switch {
        name: "start_seat",
        values: &[SwitchValue::Number(0), SwitchValue::Number(1)],
        rules: "MAG-SETUP-5 (with start_player = host_chooses)",
    },
];

/// The presets of section 14, default first.
pub const PRESETS: [&str; 5] = ["standard", "es", "it", "fr", "abstractplay"];

impl Rules {
    /// The `standard` preset: every default of section 14.
    pub fn standard() -> Rules {
        Rules {
            preset: "standard".into(),
            courts: false,
            ace_build_cost: 3,
            ace_deed: AceDeed::One,
            deed_on_two: ForbidAllow::Forbid,
            deed_dev_each_suit: false,
            ace_scoring: AceScoring::SuitCount,
            trade: TradeRule::ThreeSame,
            trade_same_suit: ForbidAllow::Forbid,
            tiebreak_total: TiebreakTotal::Scored,
            tax_dice: 1,
            district_cards: DistrictCards::Pawns,
            auto_pick: AutoPick::Fewer,
            start_player: StartPlayer::Random,
            start_seat: 0,
        }
    }

    /// A named preset, or `None` for an unknown name.
    pub fn preset(name: &str) -> Option<Rules> {
        let mut r = Rules::standard();
        match name {
            "standard" => {}
            "es" => {
                r.ace_build_cost = 1;
                r.ace_deed = AceDeed::Forbidden;
                r.ace_scoring = AceScoring::Flat;
                r.trade = TradeRule::AnyThree;
                r.tiebreak_total = TiebreakTotal::Raw;
            }
            "it" => r.deed_on_two = ForbidAllow::Allow,
            "fr" => {
                r.ace_deed = AceDeed::TwoSame;
                r.deed_on_two = ForbidAllow::Allow;
            }
            "abstractplay" => {
                r.courts = true;
                r.deed_dev_each_suit = true;
                r.trade_same_suit = ForbidAllow::Allow;
                r.auto_pick = AutoPick::Ap;
                r.start_player = StartPlayer::FirstSeat;
            }
            _ => return None,
        }
        r.preset = name.into();
        Some(r)
    }
}

impl Options {
    /// Resolves the preset (default `standard`) and applies the switches over it.
    ///
    /// # Errors
    /// An [`OptionsError`] naming the option whose value is not offered.
    pub fn resolve(&self) -> Result<Rules, OptionsError> {
        let name = self.preset.as_deref().unwrap_or("standard");
        let mut r = Rules::preset(name).ok_or_else(|| {
            OptionsError(format!(
                "preset: unknown preset {name:?}; the presets are {}",
                PRESETS.join(", ")
            ))
        })?;
        macro_rules! over {
            ($($field:ident),*) => { $( if let Some(v) = self.$field { r.$field = v; } )* };
        }
        over!(
            courts,
            ace_build_cost,
            ace_deed,
            deed_on_two,
            deed_dev_each_suit,
            ace_scoring,
            trade,
            trade_same_suit,
            tiebreak_total,
            tax_dice,
            district_cards,
            auto_pick,
            start_player,
            start_seat
        );
        r.validate()?;
        Ok(r)
    }
}

impl Rules {
    /// Checks the numeric options, which JSON types alone cannot restrict.
    ///
    /// # Errors
    /// An [`OptionsError`] naming the option.
    pub fn validate(&self) -> Result<(), OptionsError> {
        if !matches!(self.ace_build_cost, 1 | 3) {
            return Err(OptionsError(format!(
                "ace_build_cost: must be 3 or 1, not {}",
                self.ace_build_cost
            )));
        }
        if !matches!(self.tax_dice, 1 | 2) {
            return Err(OptionsError(format!(
                "tax_dice: must be 1 or 2, not {}",
                self.tax_dice
            )));
        }
        if self.start_seat > 1 {
            return Err(OptionsError(format!(
                "start_seat: must be 0 or 1, not {}",
                self.start_seat
            )));
        }
        if self.start_seat != 0 && self.start_player != StartPlayer::HostChooses {
            return Err(OptionsError(
                "start_seat: only used with start_player = host_chooses".into(),
            ));
        }
        if !PRESETS.contains(&self.preset.as_str()) {
            return Err(OptionsError(format!(
                "preset: unknown preset {:?}",
                self.preset
            )));
        }
        Ok(())
    }

    /// Whether `card` is a property card of this game (in the deck), by `courts` and
    /// `district_cards` (MAG-COMP-1, MAG-COURT-8).
    pub fn district_rank(&self) -> super::cards::Rank {
        match self.district_cards {
            DistrictCards::Pawns => super::cards::Rank::Pawn,
            DistrictCards::Courts => super::cards::Rank::Court,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_resolves_and_switches_apply_over_it() {
        for p in PRESETS {
            let r = Options {
                preset: Some(p.into()),
                ..Options::default()
            }
            .resolve()
            .unwrap();
            assert_eq!(r.preset, p);
        }
        let es = Rules::preset("es").unwrap();
        assert_eq!(es.ace_build_cost, 1);
        assert_eq!(es.trade, TradeRule::AnyThree);
        let r = Options {
            preset: Some("es".into()),
            courts: Some(true),
            ..Options::default()
        }
        .resolve()
        .unwrap();
        assert!(r.courts);
        assert_eq!(r.ace_deed, AceDeed::Forbidden);
    }

    #[test]
    fn a_bad_option_is_refused_with_its_name() {
        let e = Options {
            preset: Some("mega".into()),
            ..Options::default()
        }
        .resolve()
        .unwrap_err();
        assert!(e.0.starts_with("preset:"), "{e}");
        let e = Options {
            tax_dice: Some(3),
            ..Options::default()
        }
        .resolve()
        .unwrap_err();
        assert!(e.0.starts_with("tax_dice:"), "{e}");
        let e = serde_json::from_str::<Options>(r#"{"courts": "yes"}"#).unwrap_err();
        assert!(e.to_string().contains("invalid type"), "{e}");
        let e = serde_json::from_str::<Options>(r#"{"mega": true}"#).unwrap_err();
        assert!(e.to_string().contains("unknown field `mega`"), "{e}");
    }
}
