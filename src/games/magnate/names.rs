//! Magnate's names in the four languages of the pages and mails: the cards by code and the
//! suits, and the card table of the rules page (`{{cards}}`).

use super::cards::{CARDS, Rank, Suit};
use crate::domain::Locale;

/// Magnate's cards in es, it, fr (English is the engine's), by code. The seeds name the suits,
/// the Pawns, Crowns, Courts, the Excuse and the Mill; the other names are ours.
const CARD_NAMES: &[(&str, [&str; 3])] = &[
    ("1M", ["As de Lunas", "Asso di Lune", "As de Lunes"]),
    ("1S", ["As de Soles", "Asso di Soli", "As de Soleils"]),
    ("1V", ["As de Olas", "Asso di Onde", "As de Vagues"]),
    ("1L", ["As de Hojas", "Asso di Foglie", "As de Feuilles"]),
    ("1Y", ["As de Serpientes", "Asso di Serpi", "As de Guivres"]),
    ("1K", ["As de Nudos", "Asso di Nodi", "As de Nœuds"]),
    ("2MK", ["el Autor", "l'Autore", "l'Auteur"]),
    ("2SY", ["el Desierto", "il Deserto", "le Désert"]),
    ("2VL", ["el Origen", "l'Origine", "l'Origine"]),
    ("3MV", ["el Viaje", "il Viaggio", "le Voyage"]),
    ("3SK", ["el Pintor", "il Pittore", "le Peintre"]),
    ("3LY", ["el Salvaje", "il Selvaggio", "le Sauvage"]),
    ("4MS", ["la Montaña", "la Montagna", "la Montagne"]),
    ("4VL", ["el Marinero", "il Marinaio", "le Marin"]),
    ("4YK", ["la Batalla", "la Battaglia", "la Bataille"]),
    ("5ML", ["el Bosque", "la Foresta", "la Forêt"]),
    ("5SV", ["el Descubrimiento", "la Scoperta", "la Découverte"]),
    ("5YK", ["el Soldado", "il Soldato", "le Soldat"]),
    ("6MV", ["el Lunático", "il Lunatico", "le Lunatique"]),
    ("6SY", ["el Penitente", "il Penitente", "le Pénitent"]),
    ("6LK", ["el Mercado", "il Mercato", "le Marché"]),
    (
        "7ML",
        [
            "el Encuentro Fortuito",
            "l'Incontro Casuale",
            "la Rencontre Fortuite",
        ],
    ),
    ("7SK", ["el Castillo", "il Castello", "le Château"]),
    ("7VY", ["la Cueva", "la Caverna", "la Caverne"]),
    ("8MS", ["el Diplomático", "il Diplomatico", "le Diplomate"]),
    ("8VL", ["el Molino", "il Mulino", "le Moulin"]),
    ("8YK", ["la Traición", "il Tradimento", "la Trahison"]),
    ("9MS", ["el Pacto", "il Patto", "le Pacte"]),
    ("9VY", ["la Oscuridad", "l'Oscurità", "les Ténèbres"]),
    ("9LK", ["el Mercader", "il Mercante", "le Marchand"]),
    ("NM", ["la Cazadora", "la Cacciatrice", "la Chasseresse"]),
    ("NS", ["el Bardo", "il Bardo", "le Barde"]),
    ("NV", ["el Mar", "il Mare", "la Mer"]),
    ("NL", ["el Fin", "la Fine", "la Fin"]),
    ("NY", ["la Calamidad", "la Calamità", "la Calamité"]),
    ("NK", ["la Ganancia Inesperada", "la Manna", "l'Aubaine"]),
    ("0", ["la Excusa", "la Scusa", "l'Excuse"]),
    ("PMYK", ["el Vigía", "la Sentinella", "le Guetteur"]),
    ("PVLY", ["la Frontera", "la Frontiera", "la Frontière"]),
    ("PMSL", ["la Cosecha", "il Raccolto", "la Moisson"]),
    (
        "PSVK",
        ["el Farero", "il Guardiano del Faro", "le Gardien du Phare"],
    ),
    ("TMVK", ["el Cónsul", "il Console", "le Consul"]),
    ("TMLY", ["el Rito", "il Rito", "le Rite"]),
    ("TSVY", ["la Isla", "l'Isola", "l'Île"]),
    ("TSLK", ["la Ventana", "la Finestra", "la Fenêtre"]),
];

/// The name of a Magnate card by its code (`8VL`), in `l`.
pub fn card_name(l: Locale, code: &str) -> Option<&'static str> {
    let card = CARDS.iter().find(|c| c.code.eq_ignore_ascii_case(code))?;
    match l.index() {
        0 => Some(card.name),
        i => CARD_NAMES
            .iter()
            .find(|(c, _)| *c == card.code)
            .and_then(|(_, names)| names.get(i - 1).copied()),
    }
}

/// Suit names as the rulebooks of each language give them (M S V L Y K).
const SUIT_NAMES: [[&str; 6]; 4] = [
    ["Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots"],
    ["Lunas", "Soles", "Olas", "Hojas", "Serpientes", "Nudos"],
    ["Lune", "Soli", "Onde", "Foglie", "Serpi", "Nodi"],
    ["Lunes", "Soleils", "Vagues", "Feuilles", "Guivres", "Nœuds"],
];

/// The name of a suit in `l`, as the rulebook of that language gives it.
pub fn suit_name(l: Locale, suit: Suit) -> Option<&'static str> {
    SUIT_NAMES.get(l.index())?.get(suit.index()).copied()
}

/// The words of the card table.
fn word(l: Locale, key: &str) -> &'static str {
    let texts: [&str; 4] = match key {
        "code" => ["Code", "Código", "Codice", "Code"],
        "name" => ["Name", "Nombre", "Nome", "Nom"],
        "rank" => ["Rank", "Rango", "Valore", "Rang"],
        "suits" => ["Suits", "Palos", "Semi", "Couleurs"],
        "ace" => ["Ace", "As", "Asso", "As"],
        "crown" => ["Crown", "Corona", "Corona", "Couronne"],
        "pawn" => ["Pawn", "Peón", "Pedone", "Pion"],
        "court" => ["Court", "Corte", "Corte", "Cour"],
        "none" => ["none", "ninguno", "nessuno", "aucune"],
        _ => ["?", "?", "?", "?"],
    };
    texts.get(l.index()).copied().unwrap_or("?")
}

/// The card table of Magnate (`{{cards}}`), as Markdown.
pub fn card_table(l: Locale) -> String {
    let mut out = format!(
        "| {} | {} | {} | {} |\n|---|---|---|---|\n",
        word(l, "code"),
        word(l, "name"),
        word(l, "rank"),
        word(l, "suits")
    );
    for c in &CARDS {
        let rank = match c.rank {
            Rank::Ace => word(l, "ace").to_owned(),
            Rank::Number(n) => n.to_string(),
            Rank::Crown => word(l, "crown").to_owned(),
            Rank::Pawn => word(l, "pawn").to_owned(),
            Rank::Court => word(l, "court").to_owned(),
            Rank::Excuse => "—".to_owned(),
        };
        let suits: Vec<&str> = c.suits.iter().filter_map(|s| suit_name(l, s)).collect();
        let suits = if suits.is_empty() {
            word(l, "none").to_owned()
        } else {
            suits.join(", ")
        };
        let name = card_name(l, c.code).unwrap_or(c.name);
        out.push_str(&format!("| `{}` | {name} | {rank} | {suits} |\n", c.code));
    }
    out
}
