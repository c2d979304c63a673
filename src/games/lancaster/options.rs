//! Rules variants as data (`DAT-RULESET`): the options a client may give and the complete
//! [`Rules`] a game stores and shows.

use crate::engine::{OptionsError, Switch, SwitchValue};
use serde::{Deserialize, Serialize};

/// The presets, the default first.
pub const PRESETS: &[&str] = &["standard"];

/// The values of `extension_draw` (LAN-SET-7, §14 Q7), the default first.
pub const EXTENSION_DRAWS: &[&str] = &["choice", "random"];

/// The switches over a preset, as `/game-kinds` lists them and `resolve` accepts them.
pub const SWITCHES: &[Switch] = &[
    Switch {
        name: "start_voting_markers",
        values: &[SwitchValue::Number(1), SwitchValue::Number(2)],
        rules: "LAN-SET-6",
    },
    Switch {
        name: "extension_draw",
        values: &[SwitchValue::Text("choice"), SwitchValue::Text("random")],
        rules: "LAN-SET-7",
    },
    Switch {
        name: "sim_law_choices",
        values: &[SwitchValue::Bool(false), SwitchValue::Bool(true)],
        rules: "LAN-LAW-3",
    },
    Switch {
        name: "law_set",
        values: &[SwitchValue::Text("base")],
        rules: "DAT-RULESET",
    },
];

/// Options as a client gives them; every field optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// LAN-SET-6: voting markers each player starts with (1 or 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_voting_markers: Option<u32>,
    /// LAN-SET-7, §14 Q7: `choice` (a gained extension tile is chosen) or `random` (it is drawn
    /// blind from the player's face-down tiles).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extension_draw: Option<String>,
    /// D4: collect law choices from every player at once (the rule is player order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sim_law_choices: Option<bool>,
    /// `base` (the only one available), `new` or `mixed` (refused: the New Laws data is not in
    /// the spec yet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub law_set: Option<String>,
}

/// Every option resolved.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    pub preset: String,
    pub start_voting_markers: u32,
    pub extension_draw: String,
    pub sim_law_choices: bool,
    pub law_set: String,
}

/// `clone_from` reuses the strings of the target (see [`super::state::State`]'s).
impl Clone for Rules {
    fn clone(&self) -> Rules {
        Rules {
            preset: self.preset.clone(),
            start_voting_markers: self.start_voting_markers,
            extension_draw: self.extension_draw.clone(),
            sim_law_choices: self.sim_law_choices,
            law_set: self.law_set.clone(),
        }
    }

    fn clone_from(&mut self, source: &Rules) {
        let Rules {
            preset,
            start_voting_markers,
            extension_draw,
            sim_law_choices,
            law_set,
        } = source;
        self.preset.clone_from(preset);
        self.start_voting_markers = *start_voting_markers;
        self.extension_draw.clone_from(extension_draw);
        self.sim_law_choices = *sim_law_choices;
        self.law_set.clone_from(law_set);
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            preset: "standard".into(),
            start_voting_markers: 1,
            extension_draw: "choice".into(),
            sim_law_choices: false,
            law_set: "base".into(),
        }
    }
}

impl Rules {
    /// `extension_draw = random`: a gained extension tile is drawn blind, not chosen.
    pub fn draws_extensions(&self) -> bool {
        self.extension_draw == "random"
    }
}

impl Options {
    /// # Errors
    /// An [`OptionsError`] naming the option.
    pub fn resolve(&self) -> Result<Rules, OptionsError> {
        let mut r = Rules::default();
        if let Some(p) = &self.preset {
            if !PRESETS.contains(&p.as_str()) {
                return Err(OptionsError(format!(
                    "preset: {p:?} is not a Lancaster preset (standard)"
                )));
            }
            r.preset.clone_from(p);
        }
        if let Some(n) = self.start_voting_markers {
            if !(1..=2).contains(&n) {
                return Err(OptionsError(format!(
                    "start_voting_markers: 1 or 2, not {n}"
                )));
            }
            r.start_voting_markers = n;
        }
        if let Some(x) = &self.extension_draw {
            if !EXTENSION_DRAWS.contains(&x.as_str()) {
                return Err(OptionsError(format!(
                    "extension_draw: \"choice\" or \"random\", not {x:?}"
                )));
            }
            r.extension_draw.clone_from(x);
        }
        if let Some(b) = self.sim_law_choices {
            r.sim_law_choices = b;
        }
        if let Some(x) = &self.law_set {
            match x.as_str() {
                "base" => {}
                "new" | "mixed" => {
                    return Err(OptionsError(format!(
                        "law_set: {x:?} needs the New Laws expansion, whose 18 cards are not in \
                         the spec yet (DAT-LAWS lists only the 18 base laws), so only \"base\" \
                         can be played."
                    )));
                }
                _ => {
                    return Err(OptionsError(format!(
                        "law_set: \"base\", \"new\" or \"mixed\", not {x:?}"
                    )));
                }
            }
        }
        Ok(r)
    }
}
