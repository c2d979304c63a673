//! Scopes of personal access tokens.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What a personal access token may do. Access tokens from signing in hold every scope.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Read games, history and the account.
    Read,
    /// Create, join and play games.
    Play,
    /// Run leagues and tournaments.
    Organise,
}

impl Scope {
    pub const ALL: [Scope; 3] = [Scope::Read, Scope::Play, Scope::Organise];

    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::Play => "play",
            Scope::Organise => "organise",
        }
    }

    pub fn parse(text: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

/// A set of scopes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ScopeSet(u8);

impl ScopeSet {
    pub const ALL: ScopeSet = ScopeSet(0b111);

    fn bit(scope: Scope) -> u8 {
        match scope {
            Scope::Read => 1,
            Scope::Play => 2,
            Scope::Organise => 4,
        }
    }

    pub fn contains(self, scope: Scope) -> bool {
        self.0 & Self::bit(scope) != 0
    }

    /// The scopes in a stable order.
    pub fn to_vec(self) -> Vec<Scope> {
        Scope::ALL
            .into_iter()
            .filter(|s| self.contains(*s))
            .collect()
    }
}

impl FromIterator<Scope> for ScopeSet {
    fn from_iter<I: IntoIterator<Item = Scope>>(iter: I) -> Self {
        ScopeSet(iter.into_iter().fold(0, |acc, s| acc | Self::bit(s)))
    }
}
