//! Lancaster's names in the four languages of the pages and mails: the counties by letter and
//! the laws by code. The rules page, the game page and the event sentences read them here.

use crate::domain::Locale;

/// Lancaster's counties by letter: the spec's names where it has them (D, H, I), its placeholders
/// (the game's current settings) otherwise.
const COUNTY_NAMES: &[(&str, [&str; 4])] = &[
    ("A", ["County A", "Condado A", "Contea A", "Comté A"]),
    ("B", ["County B", "Condado B", "Contea B", "Comté B"]),
    ("C", ["County C", "Condado C", "Contea C", "Comté C"]),
    (
        "D",
        ["Gloucester", "Gloucester", "Gloucester", "Gloucester"],
    ),
    ("E", ["County E", "Condado E", "Contea E", "Comté E"]),
    ("F", ["County F", "Condado F", "Contea F", "Comté F"]),
    ("G", ["County G", "Condado G", "Contea G", "Comté G"]),
    ("H", ["Stafford", "Stafford", "Stafford", "Stafford"]),
    ("I", ["Surrey", "Surrey", "Surrey", "Surrey"]),
];

/// The name of a Lancaster county by its letter (`D`), in `l`.
pub fn county_name(l: Locale, letter: &str) -> Option<&'static str> {
    COUNTY_NAMES
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(letter))
        .and_then(|(_, names)| names.get(l.index()).copied())
}

/// Lancaster's 18 base laws: a short name each (the cards carry only their text).
const LAW_NAMES: &[(&str, [&str; 4])] = &[
    (
        "L01",
        [
            "Gold majority: upgrade",
            "Mayoría de oro: fortalecer",
            "Maggioranza d'oro: potenziare",
            "Majorité d'or : renforcer",
        ],
    ),
    (
        "L02",
        [
            "Squire majority: recruit",
            "Mayoría de escuderos: reclutar",
            "Maggioranza di scudieri: reclutare",
            "Majorité d'écuyers : recruter",
        ],
    ),
    (
        "L03",
        [
            "Counties held",
            "Condados ocupados",
            "Contee occupate",
            "Comtés tenus",
        ],
    ),
    (
        "L04",
        [
            "Buying votes",
            "Compra de votos",
            "Compravendita di voti",
            "Achat de voix",
        ],
    ),
    ("L05", ["Levy", "Tributo", "Tributo", "Tribut"]),
    (
        "L06",
        [
            "Spoils of war",
            "Botín de guerra",
            "Bottino di guerra",
            "Butin de guerre",
        ],
    ),
    (
        "L07",
        [
            "Squires for the strong",
            "Escuderos para los fuertes",
            "Scudieri per i forti",
            "Écuyers pour les forts",
        ],
    ),
    (
        "L08",
        [
            "War supplies",
            "Suministros de guerra",
            "Rifornimenti di guerra",
            "Approvisionnement de guerre",
        ],
    ),
    (
        "L09",
        ["Training", "Entrenamiento", "Addestramento", "Entraînement"],
    ),
    ("L10", ["Champion", "Campeón", "Campione", "Champion"]),
    (
        "L11",
        [
            "Fortification",
            "Fortificación",
            "Fortificazione",
            "Fortification",
        ],
    ),
    (
        "L12",
        [
            "Glory in France",
            "Gloria en Francia",
            "Gloria in Francia",
            "Gloire en France",
        ],
    ),
    ("L13", ["Dominion", "Dominio", "Dominio", "Domination"]),
    (
        "L14",
        [
            "Young knights",
            "Caballeros noveles",
            "Giovani cavalieri",
            "Jeunes chevaliers",
        ],
    ),
    (
        "L15",
        [
            "Noble retinue",
            "Séquito noble",
            "Seguito nobile",
            "Suite noble",
        ],
    ),
    (
        "L16",
        [
            "Purchased honours",
            "Honores comprados",
            "Onori comprati",
            "Honneurs achetés",
        ],
    ),
    (
        "L17",
        [
            "Squires' service",
            "Servicio de escuderos",
            "Servizio degli scudieri",
            "Service des écuyers",
        ],
    ),
    (
        "L18",
        [
            "Full household",
            "Casa completa",
            "Casata completa",
            "Maison complète",
        ],
    ),
];

/// The name of a Lancaster law by its id (`L01`), in `l`.
pub fn law_name(l: Locale, id: &str) -> Option<&'static str> {
    LAW_NAMES
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(id))
        .and_then(|(_, names)| names.get(l.index()).copied())
}
