//! The Merchants & Marauders page, drawn from the game resource the API serves: the sea zones
//! with their ports, ships, merchants and NPCs (a list per zone, no script, no picture to
//! decode), each captain's public panel, the viewer's own hold (cargo, glory cards, stash,
//! rumor, an offer in hand) and the viewer's decisions.
//!
//! It only shows what the viewer's view holds: another seat's cargo, glory cards, stash, rumor
//! and sealed ship are not in it (Part III.4), so they cannot reach this page.
//!
//! Each kind of listed action is one form whose choices are exactly the listed actions, in words,
//! posting the action's notation; the forms are grouped as the rulebook groups a turn (ship,
//! combat, movement, scouting, the port, a merchant raid, plunder, the rest). A combat asked of the
//! viewer during another captain's turn comes first, with who attacks whom. A dead captain's new
//! ship and returned modifications, which its seat may answer before its own turn (III.3.9), are
//! in no list but offered in that seat's view: they get the same forms, with the line saying it
//! may choose now or on its turn.

use crate::domain::Locale;
use crate::games::merchants::action::{Action, Loot};
use crate::games::merchants::combat::Decl;
use crate::games::merchants::data::{self, Data};
use crate::games::merchants::ids::{Loc, Nation, Ship, Skill};
use crate::games::merchants::state::Target;
use crate::present::T;
use crate::web::history::{seat_names, title};
use crate::web::i18n::t;
use crate::web::play::{GamePage, Notice};
use maud::{Markup, html};
use serde_json::Value;

/// The page's own words, en/es/it/fr.
const WORDS: &[(&str, T)] = &[
    (
        "sea",
        ["The Caribbean", "El Caribe", "I Caraibi", "Les Caraïbes"],
    ),
    ("port_of", ["port of", "puerto de", "porto di", "port de"]),
    (
        "open_sea",
        ["open sea", "mar abierto", "mare aperto", "haute mer"],
    ),
    (
        "demand",
        ["in demand", "en demanda", "richiesto", "demandé"],
    ),
    (
        "merchant",
        [
            "a merchant ship",
            "un mercante",
            "un mercantile",
            "un marchand",
        ],
    ),
    (
        "mod_hidden",
        [
            "a face-down ship modification",
            "una mejora boca abajo",
            "una miglioria coperta",
            "une amélioration face cachée",
        ],
    ),
    (
        "mod_up",
        [
            "modification for sale",
            "mejora en venta",
            "miglioria in vendita",
            "amélioration à vendre",
        ],
    ),
    ("in_port", ["in port", "en puerto", "in porto", "au port"]),
    ("at_sea", ["at sea", "en el mar", "in mare", "en mer"]),
    (
        "nobody",
        ["no ship", "ningún barco", "nessuna nave", "aucun navire"],
    ),
    ("npc", ["NPC", "PNJ", "PNG", "PNJ"]),
    ("pirate", ["pirate", "pirata", "pirata", "pirate"]),
    (
        "captains",
        ["Captains", "Capitanes", "Capitani", "Capitaines"],
    ),
    (
        "captain_hidden",
        [
            "captain not revealed yet",
            "capitán aún sin revelar",
            "capitano non ancora rivelato",
            "capitaine pas encore révélé",
        ],
    ),
    (
        "ship_sealed",
        [
            "ship chosen, sealed",
            "barco elegido, sellado",
            "nave scelta, sigillata",
            "navire choisi, scellé",
        ],
    ),
    (
        "no_ship",
        [
            "no ship yet",
            "aún sin barco",
            "ancora senza nave",
            "pas encore de navire",
        ],
    ),
    (
        "gold",
        ["Gold on board", "Oro a bordo", "Oro a bordo", "Or à bord"],
    ),
    ("glory", ["Glory", "Gloria", "Gloria", "Gloire"]),
    (
        "bounties",
        ["Bounties", "Recompensas por su cabeza", "Taglie", "Primes"],
    ),
    ("none", ["none", "ninguna", "nessuna", "aucune"]),
    (
        "specialists",
        [
            "Specialists",
            "Especialistas",
            "Specialisti",
            "Spécialistes",
        ],
    ),
    ("mission", ["Mission", "Misión", "Missione", "Mission"]),
    (
        "weapons",
        [
            "Special weapons",
            "Armas especiales",
            "Armi speciali",
            "Armes spéciales",
        ],
    ),
    (
        "mods",
        ["Modifications", "Mejoras", "Migliorie", "Améliorations"],
    ),
    (
        "cargo_count",
        [
            "Cargo cards",
            "Cartas de carga",
            "Carte carico",
            "Cartes de cargaison",
        ],
    ),
    (
        "glory_count",
        [
            "Glory cards",
            "Cartas de gloria",
            "Carte gloria",
            "Cartes de gloire",
        ],
    ),
    (
        "has_rumor",
        [
            "holds a rumor",
            "tiene un rumor",
            "ha una voce",
            "détient une rumeur",
        ],
    ),
    (
        "yours",
        ["Your hold", "Tu bodega", "La tua stiva", "Votre cale"],
    ),
    ("cargo", ["Cargo", "Carga", "Carico", "Cargaison"]),
    (
        "glory_hand",
        [
            "Glory cards in hand",
            "Cartas de gloria en mano",
            "Carte gloria in mano",
            "Cartes de gloire en main",
        ],
    ),
    (
        "stash",
        [
            "Stash (hidden gold)",
            "Escondite (oro oculto)",
            "Nascondiglio (oro nascosto)",
            "Cachette (or caché)",
        ],
    ),
    ("rumor", ["Rumor", "Rumor", "Voce", "Rumeur"]),
    (
        "known_mods",
        [
            "Tokens you placed face-down",
            "Fichas que pusiste boca abajo",
            "Segnalini che hai messo coperti",
            "Jetons posés face cachée par vous",
        ],
    ),
    (
        "sealed",
        [
            "Your sealed ship",
            "Tu barco sellado",
            "La tua nave sigillata",
            "Votre navire scellé",
        ],
    ),
    (
        "offer",
        [
            "The offer in your hand",
            "La oferta en tu mano",
            "L'offerta in mano",
            "L'offre en main",
        ],
    ),
    (
        "cards_drawn",
        [
            "Cards drawn",
            "Cartas robadas",
            "Carte pescate",
            "Cartes tirées",
        ],
    ),
    (
        "loser_hold",
        [
            "The loser's hold",
            "La bodega del vencido",
            "La stiva dello sconfitto",
            "La cale du vaincu",
        ],
    ),
    (
        "options",
        [
            "Your options",
            "Tus opciones",
            "Le tue opzioni",
            "Vos options",
        ],
    ),
    ("empty", ["empty", "vacía", "vuota", "vide"]),
    ("round", ["Round", "Ronda", "Round", "Manche"]),
    (
        "target",
        [
            "glory to win",
            "gloria para ganar",
            "gloria per vincere",
            "gloire pour gagner",
        ],
    ),
    ("war", ["At war", "En guerra", "In guerra", "En guerre"]),
    (
        "effects",
        [
            "This round",
            "Esta ronda",
            "In questo round",
            "Cette manche",
        ],
    ),
    (
        "missions_open",
        [
            "Open missions",
            "Misiones abiertas",
            "Missioni aperte",
            "Missions ouvertes",
        ],
    ),
    ("decks", ["Decks", "Mazos", "Mazzi", "Pioches"]),
    (
        "combat",
        [
            "Naval combat",
            "Combate naval",
            "Combattimento navale",
            "Combat naval",
        ],
    ),
    ("attacks", ["attacks", "ataca a", "attacca", "attaque"]),
    (
        "combat_round",
        [
            "combat round",
            "asalto",
            "round di combattimento",
            "passe d'armes",
        ],
    ),
    (
        "declared",
        ["declared", "declaró", "ha dichiarato", "a déclaré"],
    ),
    (
        "answer_now",
        [
            "You are attacked: answer now, during their turn.",
            "Te atacan: responde ahora, durante su turno.",
            "Sei attaccato: rispondi ora, durante il suo turno.",
            "On vous attaque : répondez maintenant, pendant son tour.",
        ],
    ),
    ("turn_of", ["Turn of", "Turno de", "Turno di", "Tour de"]),
    (
        "actions_left",
        [
            "actions left",
            "acciones restantes",
            "azioni rimaste",
            "actions restantes",
        ],
    ),
    (
        "decide",
        [
            "Your decision",
            "Tu decisión",
            "La tua decisione",
            "Votre décision",
        ],
    ),
    ("choose", ["Choose", "Elige", "Scegli", "Choisissez"]),
    // Groups of forms, as a turn reads.
    (
        "g_ship",
        ["Your ship", "Tu barco", "La tua nave", "Votre navire"],
    ),
    ("g_combat", ["Combat", "Combate", "Combattimento", "Combat"]),
    (
        "g_hand",
        [
            "Your glory cards",
            "Tus cartas de gloria",
            "Le tue carte gloria",
            "Vos cartes de gloire",
        ],
    ),
    (
        "g_move",
        ["Movement", "Movimiento", "Movimento", "Déplacement"],
    ),
    (
        "g_scout",
        ["Scouting", "Exploración", "Esplorazione", "Reconnaissance"],
    ),
    ("g_port", ["In port", "En puerto", "In porto", "Au port"]),
    (
        "g_raid",
        [
            "Merchant raid",
            "Asalto a un mercante",
            "Assalto a un mercantile",
            "Pillage d'un marchand",
        ],
    ),
    ("g_plunder", ["Plunder", "Saqueo", "Saccheggio", "Butin"]),
    (
        "g_other",
        [
            "Other decisions",
            "Otras decisiones",
            "Altre decisioni",
            "Autres décisions",
        ],
    ),
    // A form per kind of action: its title (and button).
    (
        "ship",
        [
            "Choose your ship",
            "Elegir barco",
            "Scegli la nave",
            "Choisir le navire",
        ],
    ),
    (
        "redraw",
        [
            "Another captain",
            "Otro capitán",
            "Un altro capitano",
            "Un autre capitaine",
        ],
    ),
    (
        "move",
        ["Sail to", "Navegar a", "Naviga verso", "Naviguer vers"],
    ),
    (
        "enter",
        [
            "Enter the port",
            "Entrar en el puerto",
            "Entra in porto",
            "Entrer au port",
        ],
    ),
    (
        "leave",
        [
            "Leave the port",
            "Salir del puerto",
            "Lascia il porto",
            "Quitter le port",
        ],
    ),
    ("scout", ["Scout", "Explorar", "Esplora", "Reconnaître"]),
    (
        "port",
        [
            "Take the Port action",
            "Acción de puerto",
            "Azione di porto",
            "Action de port",
        ],
    ),
    (
        "sell",
        ["Sell cargo", "Vender carga", "Vendi carico", "Vendre"],
    ),
    (
        "buy",
        [
            "Draw an offer",
            "Robar una oferta",
            "Pesca un'offerta",
            "Tirer une offre",
        ],
    ),
    (
        "take",
        [
            "Buy from the offer",
            "Comprar de la oferta",
            "Compra dall'offerta",
            "Acheter dans l'offre",
        ],
    ),
    (
        "yard",
        [
            "Buy a ship",
            "Comprar un barco",
            "Compra una nave",
            "Acheter un navire",
        ],
    ),
    ("repair", ["Repair", "Reparar", "Ripara", "Réparer"]),
    (
        "modify",
        [
            "Buy the modification",
            "Comprar la mejora",
            "Compra la miglioria",
            "Acheter l'amélioration",
        ],
    ),
    (
        "weapon",
        [
            "Buy a special weapon",
            "Comprar un arma especial",
            "Compra un'arma speciale",
            "Acheter une arme spéciale",
        ],
    ),
    (
        "resell",
        [
            "Sell a special weapon",
            "Vender un arma especial",
            "Vendi un'arma speciale",
            "Revendre une arme spéciale",
        ],
    ),
    ("recruit", ["Recruit", "Reclutar", "Recluta", "Recruter"]),
    (
        "hire",
        [
            "Hire crew",
            "Contratar tripulación",
            "Ingaggia equipaggio",
            "Engager l'équipage",
        ],
    ),
    (
        "employ",
        [
            "Employ a specialist",
            "Contratar un especialista",
            "Ingaggia uno specialista",
            "Employer un spécialiste",
        ],
    ),
    (
        "rumor_act",
        [
            "Buy a rumor",
            "Comprar un rumor",
            "Compra una voce",
            "Acheter une rumeur",
        ],
    ),
    (
        "claim",
        [
            "Claim a mission",
            "Reclamar una misión",
            "Reclama una missione",
            "Réclamer une mission",
        ],
    ),
    (
        "check",
        [
            "Check your rumor",
            "Comprobar tu rumor",
            "Verifica la tua voce",
            "Vérifier votre rumeur",
        ],
    ),
    (
        "stash_act",
        [
            "Stash gold",
            "Esconder oro",
            "Nascondi oro",
            "Cacher de l'or",
        ],
    ),
    (
        "done",
        [
            "Finish in port",
            "Terminar en el puerto",
            "Finisci in porto",
            "Terminer au port",
        ],
    ),
    (
        "raid_as",
        [
            "Raid the merchant",
            "Asaltar al mercante",
            "Assalta il mercantile",
            "Piller le marchand",
        ],
    ),
    (
        "draw",
        [
            "Draw a card",
            "Robar una carta",
            "Pesca una carta",
            "Tirer une carte",
        ],
    ),
    (
        "discard_glory",
        [
            "Over the hand limit of 4: discard a glory card",
            "Por encima del límite de 4: descarta una carta de gloria",
            "Oltre il limite di 4: scarta una carta gloria",
            "Au-delà de la limite de 4 : défaussez une carte de gloire",
        ],
    ),
    (
        "discard_cargo",
        [
            "Discard old cargo face up to make room",
            "Descartar carga vieja boca arriba para dejar espacio",
            "Scarta carico vecchio a faccia in su per fare spazio",
            "Défausser de la vieille cargaison face visible pour faire de la place",
        ],
    ),
    (
        "discard",
        [
            "Discard a card",
            "Descartar una carta",
            "Scarta una carta",
            "Défausser une carte",
        ],
    ),
    (
        "swap",
        [
            "Swap a card",
            "Cambiar una carta",
            "Scambia una carta",
            "Échanger une carte",
        ],
    ),
    ("stop", ["Stop", "Parar", "Basta", "Arrêter"]),
    (
        "keep",
        [
            "Keep cargo",
            "Quedarse la carga",
            "Tieni il carico",
            "Garder la cargaison",
        ],
    ),
    ("declare", ["Declare", "Declarar", "Dichiara", "Déclarer"]),
    (
        "fire",
        [
            "Opening volley",
            "Andanada inicial",
            "Bordata iniziale",
            "Bordée d'ouverture",
        ],
    ),
    (
        "reroll",
        [
            "Reroll a die",
            "Repetir un dado",
            "Ritira un dado",
            "Relancer un dé",
        ],
    ),
    (
        "play",
        [
            "Play a glory card",
            "Jugar una carta de gloria",
            "Gioca una carta gloria",
            "Jouer une carte de gloire",
        ],
    ),
    (
        "pass",
        [
            "Play nothing",
            "No jugar nada",
            "Non giocare nulla",
            "Ne rien jouer",
        ],
    ),
    ("plunder", ["Plunder", "Saquear", "Saccheggia", "Piller"]),
    (
        "capture",
        [
            "Capture the ship",
            "Capturar el barco",
            "Cattura la nave",
            "Capturer le navire",
        ],
    ),
    ("pick", ["Choose", "Elegir", "Scegli", "Choisir"]),
    (
        "place",
        [
            "Place a token",
            "Colocar una ficha",
            "Piazza un segnalino",
            "Placer un jeton",
        ],
    ),
    (
        "pardon",
        [
            "Buy a pardon",
            "Comprar un indulto",
            "Compra la grazia",
            "Acheter un pardon",
        ],
    ),
    (
        "end",
        [
            "End your turn",
            "Terminar el turno",
            "Termina il turno",
            "Finir votre tour",
        ],
    ),
    // Choices in words.
    (
        "let_go",
        [
            "let it go",
            "dejarlo ir",
            "lasciarlo andare",
            "le laisser filer",
        ],
    ),
    ("as", ["as", "como", "come", "en tant que"]),
    ("shoot", ["Shoot", "Disparar", "Sparare", "Tirer"]),
    ("board", ["Board", "Abordar", "Abbordare", "Aborder"]),
    ("flee", ["Flee", "Huir", "Fuggire", "Fuir"]),
    ("with_weapon", ["with", "con", "con", "avec"]),
    ("drop", ["dropping", "tirando", "gettando", "en jetant"]),
    ("nothing", ["nothing", "nada", "nulla", "rien"]),
    (
        "to_stash",
        [
            "to the stash",
            "al escondite",
            "nel nascondiglio",
            "vers la cachette",
        ],
    ),
    (
        "from_stash",
        [
            "back on board",
            "de vuelta a bordo",
            "di nuovo a bordo",
            "de retour à bord",
        ],
    ),
    (
        "crew_n",
        [
            "{n} crew",
            "{n} de tripulación",
            "{n} di equipaggio",
            "{n} d'équipage",
        ],
    ),
    (
        "option_n",
        ["option {n}", "opción {n}", "opzione {n}", "option {n}"],
    ),
    ("die_n", ["die {n}", "dado {n}", "dado {n}", "dé {n}"]),
    (
        "all",
        [
            "everything that fits",
            "todo lo que quepa",
            "tutto ciò che entra",
            "tout ce qui tient",
        ],
    ),
    (
        "the_merchant",
        [
            "the merchant",
            "el mercante",
            "il mercantile",
            "le marchand",
        ],
    ),
    (
        "the_rumor",
        [
            "the rumor here",
            "el rumor aquí",
            "la voce qui",
            "la rumeur ici",
        ],
    ),
    (
        "the_mission",
        [
            "the mission here",
            "la misión aquí",
            "la missione qui",
            "la mission ici",
        ],
    ),
    (
        "merchant_in",
        [
            "the merchant in",
            "el mercante en",
            "il mercantile in",
            "le marchand à",
        ],
    ),
    (
        "one_bounty",
        [
            "one bounty level of",
            "un nivel de recompensa de",
            "un livello di taglia di",
            "un niveau de prime de",
        ],
    ),
    (
        "glory_card",
        [
            "glory card",
            "carta de gloria",
            "carta gloria",
            "carte de gloire",
        ],
    ),
    (
        "specialist",
        ["specialist", "especialista", "specialista", "spécialiste"],
    ),
    ("weapon_w", ["weapon", "arma", "arma", "arme"]),
];

/// Goods (D-GOOD), ships (D-SHIP), nations and hit locations in each language; ports and cards
/// keep the names of the game's data.
const GOODS: [T; 8] = [
    ["Sugar", "Azúcar", "Zucchero", "Sucre"],
    ["Rum", "Ron", "Rum", "Rhum"],
    ["Tobacco", "Tabaco", "Tabacco", "Tabac"],
    ["Cotton", "Algodón", "Cotone", "Coton"],
    ["Coffee", "Café", "Caffè", "Café"],
    ["Cocoa", "Cacao", "Cacao", "Cacao"],
    ["Indigo", "Añil", "Indaco", "Indigo"],
    ["Timber", "Madera", "Legname", "Bois"],
];

/// D-WPN rows, as the rules page names them.
const WEAPONS: [T; 3] = [
    [
        "Long Guns",
        "Cañones largos",
        "Cannoni lunghi",
        "Canons longs",
    ],
    [
        "Chain Shot",
        "Palanqueta",
        "Palle incatenate",
        "Boulets ramés",
    ],
    ["Grapeshot", "Metralla", "Mitraglia", "Mitraille"],
];

/// D-MOD rows.
const MODIFICATIONS: [T; 6] = [
    [
        "Extra Cannon Port",
        "Portañola extra",
        "Portello extra",
        "Sabord supplémentaire",
    ],
    ["Hammocks", "Hamacas", "Amache", "Hamacs"],
    [
        "Reinforced Hull",
        "Casco reforzado",
        "Scafo rinforzato",
        "Coque renforcée",
    ],
    [
        "Extra Rigging",
        "Aparejo extra",
        "Sartiame extra",
        "Gréement supplémentaire",
    ],
    [
        "Enlarged Hold",
        "Bodega ampliada",
        "Stiva ampliata",
        "Cale agrandie",
    ],
    [
        "Improved Rudder",
        "Timón mejorado",
        "Timone migliorato",
        "Gouvernail amélioré",
    ],
];

/// D-GLORY names in table order (English is the data's).
const GLORY: [T; 14] = [
    [
        "Sailing Master",
        "Maestre de navegación",
        "Maestro di navigazione",
        "Maître de manœuvre",
    ],
    [
        "Master Gunner",
        "Maestro artillero",
        "Capo cannoniere",
        "Maître canonnier",
    ],
    [
        "Ship's Carpenter",
        "Carpintero de a bordo",
        "Carpentiere di bordo",
        "Charpentier de bord",
    ],
    [
        "Boatswain",
        "Contramaestre",
        "Nostromo",
        "Maître d'équipage",
    ],
    ["Lookout", "Vigía", "Vedetta", "Vigie"],
    [
        "Purser",
        "Sobrecargo",
        "Commissario di bordo",
        "Commissaire de bord",
    ],
    [
        "Favourable Wind",
        "Viento favorable",
        "Vento favorevole",
        "Vent favorable",
    ],
    [
        "Hidden Cove",
        "Cala escondida",
        "Cala nascosta",
        "Crique cachée",
    ],
    [
        "Full Broadside",
        "Andanada completa",
        "Bordata completa",
        "Bordée complète",
    ],
    [
        "Smuggler's Contact",
        "Contacto contrabandista",
        "Contatto di contrabbandieri",
        "Contact de contrebandier",
    ],
    [
        "Fortune's Favour",
        "Favor de la fortuna",
        "Favore della fortuna",
        "Faveur de la fortune",
    ],
    [
        "Friends at Court",
        "Amigos en la corte",
        "Amici a corte",
        "Amis à la cour",
    ],
    ["Windfall", "Golpe de suerte", "Colpo di fortuna", "Aubaine"],
    [
        "Daring Escape",
        "Huida audaz",
        "Fuga audace",
        "Évasion audacieuse",
    ],
];

/// The four skills (D-CAPT), in `Skill` order.
const SKILLS: [T; 4] = [
    ["Seamanship", "Náutica", "Navigazione", "Navigation"],
    ["Scouting", "Exploración", "Esplorazione", "Reconnaissance"],
    ["Leadership", "Liderazgo", "Comando", "Commandement"],
    ["Influence", "Influencia", "Influenza", "Influence"],
];

/// A mission's objective (D-MIS) by its verb: `{at}` a port or zone, `{n}` a number, `{skill}`,
/// `{nation}`, `{good}`.
const OBJECTIVES: [(&str, T); 11] = [
    (
        "gift",
        [
            "enter the port of {at} carrying cargo and give one card away",
            "entra en el puerto de {at} con carga y regala una carta",
            "entra nel porto di {at} con un carico e regalane una carta",
            "entrer au port de {at} avec une cargaison et en offrir une carte",
        ],
    ),
    (
        "deliver_same",
        [
            "deliver {n} cargo cards of one good to {at}",
            "entrega {n} cartas de carga de un mismo producto en {at}",
            "consegna {n} carte carico di una stessa merce a {at}",
            "livrer {n} cartes de cargaison d'une même marchandise à {at}",
        ],
    ),
    (
        "defeat_pirate_npc",
        [
            "defeat a pirate NPC",
            "derrota a un pirata no jugador",
            "sconfiggi un pirata non giocante",
            "vaincre un pirate non joueur",
        ],
    ),
    (
        "pay",
        [
            "carry {n} gold into the port of {at} and pay it",
            "lleva {n} de oro al puerto de {at} y págalo",
            "porta {n} d'oro nel porto di {at} e pagalo",
            "apporter {n} or au port de {at} et les payer",
        ],
    ),
    (
        "scout_test",
        [
            "scout in {at} and pass {skill} ≥{n}",
            "explora en {at} y supera {skill} ≥{n}",
            "esplora a {at} e supera {skill} ≥{n}",
            "reconnaître à {at} et réussir {skill} ≥{n}",
        ],
    ),
    (
        "raid",
        [
            "raid a merchant of {nation}",
            "asalta con éxito a un mercante de {nation}",
            "assalta con successo un mercantile di {nation}",
            "piller un marchand de {nation}",
        ],
    ),
    (
        "deliver_any",
        [
            "deliver {n} cargo cards to {at}",
            "entrega {n} cartas de carga en {at}",
            "consegna {n} carte carico a {at}",
            "livrer {n} cartes de cargaison à {at}",
        ],
    ),
    (
        "win_combat",
        [
            "win a naval combat",
            "gana un combate naval",
            "vinci un combattimento navale",
            "gagner un combat naval",
        ],
    ),
    (
        "clean_entry",
        [
            "enter the port of {at} with no bounty from {nation}",
            "entra en el puerto de {at} sin recompensa de {nation}",
            "entra nel porto di {at} senza taglia di {nation}",
            "entrer au port de {at} sans prime de {nation}",
        ],
    ),
    (
        "full_crew",
        [
            "be in the port of {at} with a full crew",
            "estar en el puerto de {at} con la tripulación completa",
            "essere nel porto di {at} con l'equipaggio al completo",
            "être au port de {at} avec un équipage complet",
        ],
    ),
    (
        "deliver_good",
        [
            "deliver {n} {good} to {at}",
            "entrega {n} de {good} en {at}",
            "consegna {n} di {good} a {at}",
            "livrer {n} {good} à {at}",
        ],
    ),
];

/// A rumor's reward besides gold and its glory point (D-RUM), by its data name.
const RUMOR_EXTRAS: [(&str, T); 6] = [
    (
        "glory_pick",
        [
            "draw 2 glory cards, keep 1",
            "roba 2 cartas de gloria y quédate 1",
            "pesca 2 carte gloria e tienine 1",
            "piocher 2 cartes de gloire, en garder 1",
        ],
    ),
    (
        "free_mod",
        [
            "install a port's modification free",
            "instala gratis la modificación de un puerto",
            "installa gratis la modifica di un porto",
            "installer gratuitement la modification d'un port",
        ],
    ),
    (
        "cargo",
        [
            "3 free cargo cards",
            "3 cartas de carga gratis",
            "3 carte carico gratis",
            "3 cartes de cargaison gratuites",
        ],
    ),
    (
        "crew_full",
        [
            "crew to maximum",
            "tripulación al máximo",
            "equipaggio al massimo",
            "équipage au maximum",
        ],
    ),
    (
        "pardon",
        [
            "remove 1 bounty level of one nation",
            "quita 1 nivel de recompensa de una nación",
            "togli 1 livello di taglia di una nazione",
            "retirer 1 niveau de prime d'une nation",
        ],
    ),
    (
        "weapon",
        [
            "1 free special weapon",
            "1 arma especial gratis",
            "1 arma speciale gratis",
            "1 arme spéciale gratuite",
        ],
    ),
];

const MISSION_LINE: T = [
    "{code}: {objective} (claim in {zone} with {skill} ≥{need}; {gold} gold and 1 glory point)",
    "{code}: {objective} (se reclama en {zone} con {skill} ≥{need}; {gold} de oro y 1 punto de gloria)",
    "{code}: {objective} (si reclama a {zone} con {skill} ≥{need}; {gold} d'oro e 1 punto gloria)",
    "{code} : {objective} (à réclamer à {zone} avec {skill} ≥{need} ; {gold} or et 1 point de gloire)",
];

const RUMOR_LINE: T = [
    "{code}: check at {zone} with {skill} ≥{need}; if true: {reward}",
    "{code}: se comprueba en {zone} con {skill} ≥{need}; si es cierto: {reward}",
    "{code}: si verifica a {zone} con {skill} ≥{need}; se è vera: {reward}",
    "{code} : à vérifier à {zone} avec {skill} ≥{need} ; si elle est vraie : {reward}",
];

const GOLD_N: T = ["{n} gold", "{n} de oro", "{n} d'oro", "{n} or"];
const GLORY_POINT: T = [
    "1 glory point",
    "1 punto de gloria",
    "1 punto gloria",
    "1 point de gloire",
];

fn ship_words(s: Ship) -> &'static T {
    match s {
        Ship::Sloop => &["Sloop", "Balandra", "Sloop", "Sloop"],
        Ship::Flute => &["Flute", "Filibote", "Fluyt", "Flûte"],
        Ship::Frigate => &["Frigate", "Fragata", "Fregata", "Frégate"],
        Ship::Galleon => &["Galleon", "Galeón", "Galeone", "Galion"],
        Ship::ManOWar => &[
            "Man-o-War",
            "Navío de línea",
            "Vascello",
            "Vaisseau de ligne",
        ],
    }
}

fn nation_words(n: Nation) -> &'static T {
    match n {
        Nation::ES => &["Spain", "España", "Spagna", "Espagne"],
        Nation::EN => &["England", "Inglaterra", "Inghilterra", "Angleterre"],
        Nation::FR => &["France", "Francia", "Francia", "France"],
        Nation::NL => &["Netherlands", "Países Bajos", "Paesi Bassi", "Pays-Bas"],
    }
}

/// The five hit locations in player-board order (the view's `hits` and `full`).
const LOCS: [T; 5] = [
    ["Hull", "Casco", "Scafo", "Coque"],
    ["Masts", "Mástiles", "Alberi", "Mâts"],
    ["Cannons", "Cañones", "Cannoni", "Canons"],
    ["Crew", "Tripulación", "Equipaggio", "Équipage"],
    ["Cargo holds", "Bodegas", "Stive", "Cales"],
];

fn loc_word(l: Locale, loc: Loc) -> &'static str {
    let i = Loc::HITS.iter().position(|x| *x == loc).unwrap_or(0);
    LOCS.get(i).map_or("?", |t| pick(l, t))
}

fn pick(l: Locale, t: &T) -> &'static str {
    crate::present::pick(l, t)
}

fn w(l: Locale, key: &str) -> &'static str {
    WORDS
        .iter()
        .find(|(k, _)| *k == key)
        .map_or("?", |(_, t)| pick(l, t))
}

fn with_n(l: Locale, key: &str, n: impl std::fmt::Display) -> String {
    w(l, key).replace("{n}", &n.to_string())
}

/// A JSON scalar as a word: strings without their quotes.
fn word(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "—".to_owned(),
        other => other.to_string(),
    }
}

fn list(v: &Value) -> Vec<&Value> {
    v.as_array().map(|a| a.iter().collect()).unwrap_or_default()
}

fn num(v: &Value) -> Option<u8> {
    v.as_u64().and_then(|n| u8::try_from(n).ok())
}

fn joined(items: Vec<String>, l: Locale) -> String {
    if items.is_empty() {
        w(l, "none").to_owned()
    } else {
        items.join(", ")
    }
}

/// The names the page writes, from the game's data and the tables above.
struct Names<'a> {
    l: Locale,
    d: Option<&'static Data>,
    seats: &'a [String],
}

impl Names<'_> {
    fn zone(&self, z: u8) -> String {
        self.d
            .and_then(|d| d.zones.get(usize::from(z)))
            .map_or_else(|| z.to_string(), |r| r.name.clone())
    }

    fn zone_v(&self, v: &Value) -> String {
        num(v).map_or_else(|| word(v), |z| self.zone(z))
    }

    fn good(&self, card: u8) -> String {
        let good = self.d.map(|d| usize::from(d.cargo_card(card).good));
        good.and_then(|g| GOODS.get(g))
            .map_or_else(|| card.to_string(), |t| pick(self.l, t).to_owned())
    }

    fn goods(&self, cards: &[u8]) -> String {
        joined(cards.iter().map(|c| self.good(*c)).collect(), self.l)
    }

    fn goods_v(&self, v: &Value) -> String {
        let cards: Vec<u8> = list(v).into_iter().filter_map(num).collect();
        self.goods(&cards)
    }

    fn glory(&self, card: u8) -> String {
        let design = self.d.and_then(|d| d.glory_card(card));
        let row = design.and_then(|g| self.d?.glory.iter().position(|r| r.id == g.id));
        match (row.and_then(|i| GLORY.get(i)), design) {
            (Some(t), _) => pick(self.l, t).to_owned(),
            (None, Some(g)) => g.name.clone(),
            (None, None) => card.to_string(),
        }
    }

    fn zone_id(&self, id: &str) -> String {
        self.d
            .and_then(|d| d.zones.iter().find(|z| z.id == id))
            .map_or_else(|| id.to_owned(), |z| z.name.clone())
    }

    fn skill(&self, skill: Skill) -> &'static str {
        let i = match skill {
            Skill::Seamanship => 0,
            Skill::Scouting => 1,
            Skill::Leadership => 2,
            Skill::Influence => 3,
        };
        SKILLS.get(i).map_or("?", |t| pick(self.l, t))
    }

    /// A mission card in words (D-MIS): what to do, where to claim it, and its reward.
    fn mission(&self, id: &str) -> String {
        let Some(m) = self.d.and_then(|d| d.missions.iter().find(|m| m.id == id)) else {
            return id.to_owned();
        };
        let o = &m.objective;
        let good = o.good.as_deref().and_then(|g| {
            let i = self.d?.goods.iter().position(|r| r.id == g)?;
            GOODS.get(i).map(|t| pick(self.l, t))
        });
        let objective = OBJECTIVES
            .iter()
            .find(|(k, _)| *k == o.kind)
            .map_or(o.kind.as_str(), |(_, t)| pick(self.l, t))
            .replace(
                "{at}",
                &o.at.as_deref().map(|a| self.zone_id(a)).unwrap_or_default(),
            )
            .replace("{n}", &o.n.to_string())
            .replace("{skill}", o.skill.map_or("", |k| self.skill(k)))
            .replace(
                "{nation}",
                o.nation.map_or("", |n| pick(self.l, nation_words(n))),
            )
            .replace("{good}", good.unwrap_or(""));
        pick(self.l, &MISSION_LINE)
            .replace("{code}", &m.id)
            .replace("{objective}", &objective)
            .replace("{zone}", &self.zone_id(&m.zone))
            .replace("{skill}", self.skill(m.skill))
            .replace("{need}", &m.need.to_string())
            .replace("{gold}", &m.gold.to_string())
    }

    /// A rumor card in words (D-RUM): where and how it is checked, and what it gives if true.
    fn rumor(&self, id: &str) -> String {
        let Some(r) = self.d.and_then(|d| d.rumors.iter().find(|r| r.id == id)) else {
            return id.to_owned();
        };
        let mut reward = Vec::new();
        if r.gold > 0 {
            reward.push(pick(self.l, &GOLD_N).replace("{n}", &r.gold.to_string()));
        }
        if let Some(extra) = &r.extra {
            reward.push(
                RUMOR_EXTRAS
                    .iter()
                    .find(|(k, _)| k == extra)
                    .map_or_else(|| extra.clone(), |(_, t)| pick(self.l, t).to_owned()),
            );
        }
        reward.push(pick(self.l, &GLORY_POINT).to_owned());
        pick(self.l, &RUMOR_LINE)
            .replace("{code}", &r.id)
            .replace("{zone}", &self.zone_id(&r.zone))
            .replace("{skill}", self.skill(r.skill))
            .replace("{need}", &r.need.to_string())
            .replace("{reward}", &reward.join(", "))
    }

    fn glories_v(&self, v: &Value) -> String {
        let names = list(v)
            .into_iter()
            .filter_map(num)
            .map(|c| self.glory(c))
            .collect();
        joined(names, self.l)
    }

    fn weapon(&self, kind: u8) -> String {
        if let Some(t) = WEAPONS.get(usize::from(kind)) {
            return pick(self.l, t).to_owned();
        }
        self.d
            .and_then(|d| d.weapons.get(usize::from(kind)))
            .map_or_else(|| kind.to_string(), |r| r.name.clone())
    }

    fn modification(&self, kind: u8) -> String {
        if let Some(t) = MODIFICATIONS.get(usize::from(kind)) {
            return pick(self.l, t).to_owned();
        }
        self.d
            .and_then(|d| d.modifications.get(usize::from(kind)))
            .map_or_else(|| kind.to_string(), |r| r.name.clone())
    }

    fn npc(&self, card: u8) -> String {
        self.d
            .and_then(|d| d.npcs.get(usize::from(card)))
            .map_or_else(|| card.to_string(), |r| r.name.clone())
    }

    fn npc_by_id(&self, id: &str) -> String {
        self.d
            .and_then(|d| d.npcs.iter().find(|n| n.id == id))
            .map_or_else(|| id.to_owned(), |r| r.name.clone())
    }

    fn captain(&self, id: &str) -> String {
        self.d
            .and_then(|d| d.captains.iter().find(|c| c.id == id))
            .map_or_else(|| id.to_owned(), |c| c.name.clone())
    }

    fn ship(&self, s: Ship) -> &'static str {
        pick(self.l, ship_words(s))
    }

    fn ship_v(&self, v: &Value) -> String {
        v.as_str()
            .and_then(|s| s.parse::<Ship>().ok())
            .map_or_else(|| word(v), |s| self.ship(s).to_owned())
    }

    fn nation(&self, n: Nation) -> &'static str {
        pick(self.l, nation_words(n))
    }

    fn nation_v(&self, v: &Value) -> String {
        v.as_str()
            .and_then(|s| s.parse::<Nation>().ok())
            .map_or_else(|| word(v), |n| self.nation(n).to_owned())
    }

    fn seat(&self, s: u8) -> String {
        self.seats
            .get(usize::from(s))
            .cloned()
            .unwrap_or_else(|| format!("{} {s}", t(self.l, "seat")))
    }

    /// A side of a combat: a captain by their player's name, or an NPC by name.
    fn side(&self, v: &Value) -> String {
        match (v["kind"].as_str(), num(&v["id"])) {
            (Some("player"), Some(s)) => self.seat(s),
            (_, Some(n)) => self.npc(n),
            _ => "?".to_owned(),
        }
    }
}

/// One listed action in words, read from its notation (the engine's own parser).
fn choice_text(n: &Names<'_>, notation: &str) -> String {
    let l = n.l;
    let Ok(a) = notation.parse::<Action>() else {
        return notation.to_owned();
    };
    match a {
        Action::Ship { ship } | Action::Yard { ship } => n.ship(ship).to_owned(),
        Action::Move { to } | Action::Place { to } => n.zone(to),
        Action::Leave { drop } if drop.is_empty() => w(l, "leave").to_owned(),
        Action::Leave { drop } => format!("{} {}", w(l, "drop"), n.goods(&drop)),
        Action::Scout { target } => match target {
            Target::Merchant => w(l, "the_merchant").to_owned(),
            Target::Rumor => w(l, "the_rumor").to_owned(),
            Target::Mission => w(l, "the_mission").to_owned(),
            Target::Player(s) => n.seat(s.0),
            Target::Npc(c) => n.npc(c),
            Target::FarMerchant(z) => format!("{} {}", w(l, "merchant_in"), n.zone(z)),
        },
        Action::Sell { cards } | Action::Take { cards } | Action::Keep { cards } => {
            if cards.is_empty() {
                w(l, "nothing").to_owned()
            } else {
                n.goods(&cards)
            }
        }
        Action::Repair { locs } => locs
            .iter()
            .map(|x| loc_word(l, *x))
            .collect::<Vec<_>>()
            .join(", "),
        Action::Weapon { kind } | Action::Resell { kind } => n.weapon(kind),
        Action::Hire { crew } => with_n(l, "crew_n", crew),
        Action::Stash { amount } if amount >= 0 => format!("{amount} → {}", w(l, "to_stash")),
        Action::Stash { amount } => format!("{} {}", amount.unsigned_abs(), w(l, "from_stash")),
        Action::RaidAs { nation: Some(x) } => format!("{} {}", w(l, "as"), n.nation(x)),
        Action::RaidAs { nation: None } => w(l, "let_go").to_owned(),
        Action::Discard { card } | Action::Swap { card } | Action::DiscardCargo { card } => {
            n.good(card)
        }
        Action::Declare { decl, weapon } => {
            let d = match decl {
                Decl::Shoot => w(l, "shoot"),
                Decl::Board => w(l, "board"),
                Decl::Flee => w(l, "flee"),
            };
            match weapon {
                Some(k) => format!("{d} {} {}", w(l, "with_weapon"), n.weapon(k)),
                None => d.to_owned(),
            }
        }
        Action::Employ { card }
        | Action::Play { card, cargo: None }
        | Action::DiscardGlory { card } => n.glory(card),
        Action::Play {
            card,
            cargo: Some(c),
        } => format!("{} ({})", n.glory(card), n.good(c)),
        Action::Reroll { die } => with_n(l, "die_n", die),
        Action::Pardon { nation } => format!("{} {}", w(l, "one_bounty"), n.nation(nation)),
        Action::Plunder { item } => match item {
            Loot::Gold => w(l, "gold").to_owned(),
            Loot::Cargo(c) => n.good(c),
            Loot::Glory(c) => format!("{} {}", w(l, "glory_card"), n.glory(c)),
            Loot::Specialist(c) => format!("{} {}", w(l, "specialist"), n.glory(c)),
            Loot::Rumor => w(l, "rumor").to_owned(),
            Loot::Weapon(k) => format!("{} {}", w(l, "weapon_w"), n.weapon(k)),
            Loot::All => w(l, "all").to_owned(),
        },
        Action::Pick { option } => with_n(l, "option_n", option),
        other => w(l, form_key(action_type(&other))).to_owned(),
    }
}

/// The wire name of an action's type (its JSON `type`).
fn action_type(a: &Action) -> String {
    serde_json::to_value(a)
        .ok()
        .and_then(|v| v["type"].as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// The WORDS key of a form's title: the action type, except where the type's name is also a
/// word of the panels.
fn form_key(kind: String) -> &'static str {
    match kind.as_str() {
        "rumor" => "rumor_act",
        "stash" => "stash_act",
        other => WORDS
            .iter()
            .find(|(k, _)| *k == other)
            .map_or("?", |(k, _)| *k),
    }
}

/// The groups of forms, in the order the page lists them, and the action types in each.
const GROUPS: &[(&str, &[&str])] = &[
    ("g_combat", &["declare", "fire", "reroll", "play", "pass"]),
    // Asked at once, before anything else of the seat's (MM-GCARD-2).
    ("g_hand", &["discard_glory"]),
    ("g_ship", &["ship", "redraw"]),
    ("g_move", &["move", "enter", "leave"]),
    ("g_scout", &["scout"]),
    (
        "g_port",
        &[
            "port", "sell", "buy", "take", "yard", "repair", "modify", "weapon", "resell",
            "recruit", "hire", "employ", "rumor", "claim", "check", "stash", "done",
        ],
    ),
    (
        "g_raid",
        &["raid_as", "draw", "discard", "swap", "stop", "keep"],
    ),
    ("g_plunder", &["plunder", "capture"]),
    // MM-BUY-6: while buying, keeping raid cargo or plundering.
    (
        "g_other",
        &["discard_cargo", "pick", "place", "pardon", "end"],
    ),
];

/// The group of an action type (an unknown type goes with the other decisions).
fn group_of(kind: &str) -> &'static str {
    GROUPS
        .iter()
        .find(|(_, kinds)| kinds.contains(&kind))
        .map_or("g_other", |(g, _)| *g)
}

/// The kinds of listed action in the order the listed actions first name them.
fn kinds(legal: &[Value]) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for a in legal {
        if let Some(k) = a["type"].as_str()
            && !out.contains(&k)
        {
            out.push(k);
        }
    }
    out
}

fn problem_box(p: &GamePage, action: &str) -> Markup {
    html! {
        @if let Some(pr) = p.notes.problem.as_ref().filter(|pr| pr.action == action) {
            div.problem role="alert" id={ "problem-" (action) } {
                strong { (t(p.locale, "refused")) }
                @if let Some(rule) = &pr.rule { " (" (super::rule_ref(&p.game.kind, rule)) ")" }
                ": " (pr.detail.say(p.locale))
            }
        }
    }
}

/// Whether the open decision is a combat (or a card window) asked of the viewer while another
/// captain's turn runs.
fn attacked_in_anothers_turn(p: &GamePage, view: &Value) -> bool {
    let me = p.game.you.as_ref().map(|y| u64::from(y.seat));
    let d = &view["decision"];
    let combat = d["kind"] == "combat" || d["kind"] == "window";
    let defender = d["defender"]["kind"] == "player" && d["defender"]["id"].as_u64() == me;
    combat && (defender || d["kind"] == "window") && !p.legal_actions.is_empty() && {
        let attacker = d["aggressor"]["kind"] == "player" && d["aggressor"]["id"].as_u64() == me;
        !attacker
    }
}

/// One form for one kind of action among `offered` (listed or offered early): a one-click button
/// when there is one choice, radio buttons for a few, a list for many.
fn form(p: &GamePage, n: &Names<'_>, offered: &[Value], kind: &str) -> Markup {
    let l = p.locale;
    let url = format!(
        "/play/{}/{kind}?v={}&csrf={}",
        p.game.id,
        p.game.version,
        p.csrf.as_deref().unwrap_or("")
    );
    let title = w(l, form_key(kind.to_owned()));
    let choices: Vec<(&str, String)> = offered
        .iter()
        .filter(|a| a["type"] == kind)
        .filter_map(|a| a["notation"].as_str())
        .map(|notation| (notation, choice_text(n, notation)))
        .collect();
    let chosen = p
        .notes
        .problem
        .as_ref()
        .filter(|pr| pr.action == kind)
        .and_then(|pr| pr.fields.get("notation"));
    let id = format!("{kind}-notation");
    html! {
        form.action method="post" action=(url) data-action=(kind) {
            (problem_box(p, kind))
            @match choices.as_slice() {
                [(notation, text)] => {
                    input type="hidden" name="notation" value=(notation);
                    button type="submit" { (title) @if text.as_str() != title { ": " (text) } }
                }
                few if few.len() <= 4 => {
                    fieldset {
                        legend { (title) }
                        @for (i, (notation, text)) in few.iter().enumerate() {
                            @let rid = format!("{kind}-{i}");
                            input type="radio" id=(rid) name="notation" value=(notation) required
                                checked[chosen == Some(*notation)];
                            label for=(rid) { (text) }
                            br;
                        }
                    }
                    button type="submit" { (title) }
                }
                many => {
                    h4 { (title) }
                    label for=(id) { (w(l, "choose")) }
                    br;
                    select id=(id) name="notation" required {
                        @for (notation, text) in many {
                            option value=(notation) selected[chosen == Some(*notation)] { (text) }
                        }
                    }
                    " "
                    button type="submit" { (title) }
                }
            }
        }
    }
}

/// What the viewer may do now: the listed actions, or else what its view offers early (a dead
/// captain's new ship and returned modifications before its own turn, III.3.9: only that seat's
/// view holds them, and no list does, as the game does not wait for them yet).
fn offered<'a>(p: &'a GamePage, view: &'a Value) -> &'a [Value] {
    if p.legal_actions.is_empty() {
        view["rejoin"]["actions"]
            .as_array()
            .map_or(&[], Vec::as_slice)
    } else {
        &p.legal_actions
    }
}

/// The viewer's decisions: the prompt (for an early choice, that it may wait for its turn), then
/// a form per kind of action offered, grouped.
fn decisions(p: &GamePage, view: &Value, n: &Names<'_>) -> Markup {
    let l = p.locale;
    let offer = offered(p, view);
    let listed = kinds(offer);
    let reminder = crate::engine::registry::GameKind::parse(&p.game.kind)
        .zip(p.game.you.as_ref())
        .map(|(k, you)| k.reminder(l, view, usize::from(you.seat)))
        .unwrap_or_default();
    html! {
        @if !offer.is_empty() {
            section.decide aria-labelledby="decide-h" {
                h2 id="decide-h" { (w(l, "decide")) }
                @if attacked_in_anothers_turn(p, view) {
                    p.problem role="alert" { strong { (w(l, "answer_now")) } }
                }
                // The first sentence repeats the board; the prompt is what matters here.
                @for s in reminder.iter().skip(1) {
                    p.muted { (crate::web::history::sentence(p, s, &|_| None)) }
                }
                @for (group, _) in GROUPS {
                    @let here: Vec<&str> = listed.iter().copied().filter(|k| group_of(k) == *group).collect();
                    @if !here.is_empty() {
                        section aria-labelledby={ (group) "-h" } {
                            h3 id={ (group) "-h" } { (w(l, group)) }
                            @for kind in here { (form(p, n, offer, kind)) }
                        }
                    }
                }
            }
        }
    }
}

/// A combat under way: who attacks whom, the round, the open declaration.
fn combat(l: Locale, view: &Value, n: &Names<'_>) -> Markup {
    let d = &view["decision"];
    html! {
        @if d["kind"] == "combat" {
            section aria-labelledby="combat-h" {
                h2 id="combat-h" { (w(l, "combat")) }
                p {
                    strong { (n.side(&d["aggressor"])) } " " (w(l, "attacks")) " " strong { (n.side(&d["defender"])) }
                    " · " (w(l, "combat_round")) " " (word(&d["round"]))
                }
                @if let Some(decl) = d["declared"].as_str() {
                    p { (n.side(&d["aggressor"])) " " (w(l, "declared")) ": " strong { (w(l, decl)) } }
                }
            }
        }
    }
}

/// Each sea zone with its port, what lies there and who sails there.
fn map(p: &GamePage, view: &Value, n: &Names<'_>) -> Markup {
    let l = p.locale;
    let Some(d) = n.d else {
        return html! {};
    };
    let players = list(&view["players"]);
    let npcs = list(&view["npcs"]);
    html! {
        section aria-labelledby="sea-h" {
            h2 id="sea-h" { (w(l, "sea")) }
            ul.plain.districts {
                @for (i, z) in d.zones.iter().enumerate() {
                    @let zi = i as u64;
                    @let here: Vec<&&Value> = players.iter().filter(|pl| pl["zone"].as_u64() == Some(zi)).collect();
                    @let npcs_here: Vec<&&Value> = npcs.iter().filter(|x| x["zone"].as_u64() == Some(zi)).collect();
                    li.district {
                        h3 {
                            span { (z.name) }
                            @if let Some(nation) = z.nation {
                                span.muted { (w(l, "port_of")) " " (n.nation(nation)) }
                            } @else {
                                span.muted { (w(l, "open_sea")) }
                            }
                        }
                        ul {
                            @if let Some(g) = view["demand"].get(i).and_then(num) {
                                li { (w(l, "demand")) ": " (GOODS.get(usize::from(g)).map_or("?", |t| pick(l, t))) }
                            }
                            @match &view["mod_tokens"][i] {
                                Value::String(s) if s == "hidden" => { li { (w(l, "mod_hidden")) } }
                                Value::Object(m) => {
                                    @if let Some(k) = m.get("kind").and_then(num) {
                                        li { (w(l, "mod_up")) ": " (n.modification(k)) }
                                    }
                                }
                                _ => {}
                            }
                            @if view["merchants"][i] == true {
                                li { (w(l, "merchant")) }
                            }
                            @for pl in &here {
                                li.mine[p.game.you.as_ref().map(|y| u64::from(y.seat)) == pl["seat"].as_u64()] {
                                    strong { (num(&pl["seat"]).map_or_else(|| "?".to_owned(), |s| n.seat(s))) }
                                    " — "
                                    @if pl["ship"].is_null() { (w(l, "ship_sealed")) } @else { (n.ship_v(&pl["ship"])) }
                                    " · "
                                    (if pl["in_port"] == true { w(l, "in_port") } else { w(l, "at_sea") })
                                }
                            }
                            @for x in &npcs_here {
                                li {
                                    (w(l, "npc")) ": " strong { (n.npc_by_id(x["npc"].as_str().unwrap_or(""))) }
                                    @if let Some(card) = d.npcs.iter().find(|c| Some(c.id.as_str()) == x["npc"].as_str()) {
                                        " — " (card.ship.parse::<Ship>().map_or_else(|_| card.ship.clone(), |s| n.ship(s).to_owned()))
                                        @if card.pirate { " (" (w(l, "pirate")) ")" }
                                    }
                                }
                            }
                            @if here.is_empty() && npcs_here.is_empty() {
                                li.muted { (w(l, "nobody")) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Current / full values of the five hit locations.
fn hits(l: Locale, pl: &Value) -> Markup {
    html! {
        ul.plain.tokens {
            @for (i, name) in LOCS.iter().enumerate() {
                li { (pick(l, name)) " " (word(&pl["hits"][i])) "/" (word(&pl["full"][i])) }
            }
        }
    }
}

/// Each captain's public panel.
fn captains(p: &GamePage, view: &Value, n: &Names<'_>) -> Markup {
    let l = p.locale;
    let me = p.game.you.as_ref().map(|y| u64::from(y.seat));
    html! {
        section aria-labelledby="captains-h" {
            h2 id="captains-h" { (w(l, "captains")) }
            @for pl in list(&view["players"]) {
                @let seat = num(&pl["seat"]);
                @let mine = pl["seat"].as_u64() == me && me.is_some();
                div class={ "faction" @if mine { " me" } } {
                    h3 {
                        (seat.map_or_else(|| "?".to_owned(), |s| n.seat(s)))
                        @if mine { " (" (t(l, "you")) ")" }
                    }
                    p {
                        @match pl["captain"].as_str() {
                            Some(c) => { (n.captain(c)) }
                            None => { span.muted { (w(l, "captain_hidden")) } }
                        }
                        " · "
                        @if !pl["ship"].is_null() {
                            (n.ship_v(&pl["ship"])) " · " (n.zone_v(&pl["zone"]))
                        } @else if pl["has_chosen"] == true {
                            span.muted { (w(l, "ship_sealed")) }
                        } @else {
                            span.muted { (w(l, "no_ship")) }
                        }
                    }
                    @if !pl["ship"].is_null() { (hits(l, pl)) }
                    p {
                        (w(l, "gold")) ": " (word(&pl["gold"]))
                        " · " (w(l, "glory")) ": " (word(&pl["glory"]))
                    }
                    @let bounties: Vec<String> = Nation::ALL.iter().zip(list(&pl["bounty"])).filter(|(_, b)| b.as_u64().unwrap_or(0) > 0).map(|(x, b)| format!("{} {}", n.nation(*x), word(b))).collect();
                    p { (w(l, "bounties")) ": " (joined(bounties, l)) }
                    p {
                        (w(l, "cargo_count")) ": " (word(&pl["cargo_count"]))
                        " · " (w(l, "glory_count")) ": " (word(&pl["glory_cards"]))
                        @if pl["has_rumor"] == true { " · " (w(l, "has_rumor")) }
                    }
                    @let specialists = list(&pl["specialists"]);
                    @if !specialists.is_empty() {
                        p { (w(l, "specialists")) ": " (n.glories_v(&pl["specialists"])) }
                    }
                    @let weapons: Vec<String> = list(&pl["weapons"]).into_iter().filter_map(num).map(|k| n.weapon(k)).collect();
                    @if !weapons.is_empty() { p { (w(l, "weapons")) ": " (weapons.join(", ")) } }
                    @let mods: Vec<String> = list(&pl["mods"]).into_iter().filter_map(num).map(|k| n.modification(k)).collect();
                    @if !mods.is_empty() { p { (w(l, "mods")) ": " (mods.join(", ")) } }
                    @if let Some(m) = pl["mission"].as_str() {
                        p { (w(l, "mission")) ": " (m) }
                    }
                }
            }
        }
    }
}

/// The viewer's own hold: what only their view holds. Absent for a spectator.
fn own_panel(p: &GamePage, view: &Value, n: &Names<'_>) -> Markup {
    let l = p.locale;
    let Some(me) = p.game.you.as_ref().map(|y| usize::from(y.seat)) else {
        return html! {};
    };
    let pl = &view["players"][me];
    if pl["cargo"].is_null() {
        return html! {};
    }
    let d = &view["decision"];
    let mine = d["seat"].as_u64() == Some(me as u64);
    html! {
        section.mine aria-labelledby="own-h" {
            h2 id="own-h" { (w(l, "yours")) }
            dl {
                dt { (w(l, "cargo")) }
                dd id="own-cargo" { (n.goods_v(&pl["cargo"])) }
                dt { (w(l, "glory_hand")) }
                dd id="own-glory" { (n.glories_v(&pl["glory_hand"])) }
                dt { (w(l, "stash")) }
                dd id="own-stash" { (word(&pl["stash"])) }
                dt { (w(l, "rumor")) }
                dd id="own-rumor" { (pl["rumor"].as_str().map_or_else(|| w(l, "none").to_owned(), |r| n.rumor(r))) }
                @if let Some(s) = pl["sealed"].as_str() {
                    dt { (w(l, "sealed")) }
                    dd { (n.ship_v(&Value::String(s.to_owned()))) }
                }
                @let known: Vec<String> = list(&pl["known_mods"]).iter().map(|x| format!("{}: {}", n.zone_v(&x[0]), num(&x[1]).map_or_else(|| "?".to_owned(), |k| n.modification(k)))).collect();
                @if !known.is_empty() {
                    dt { (w(l, "known_mods")) }
                    dd { (known.join("; ")) }
                }
                @if mine && d["kind"] == "offer" && d["cards"].is_array() {
                    dt { (w(l, "offer")) }
                    dd { (n.goods_v(&d["cards"])) }
                }
                @if mine && (d["kind"] == "keep" || d["kind"] == "raid") && d["cards"].is_array() {
                    dt { (w(l, "cards_drawn")) }
                    dd { (n.goods_v(&d["cards"])) }
                }
                @if mine && d["kind"] == "plunder" && d["cargo"].is_array() {
                    dt { (w(l, "loser_hold")) }
                    dd {
                        (n.goods_v(&d["cargo"])) " · " (n.glories_v(&d["glory_hand"]))
                        @if let Some(r) = d["rumor"].as_str() { " · " (n.rumor(r)) }
                    }
                }
            }
        }
    }
}

fn status(p: &GamePage, view: &Value, n: &Names<'_>) -> Markup {
    let l = p.locale;
    let over = matches!(
        p.game.status,
        crate::services::games::GameStatus::Finished | crate::services::games::GameStatus::Aborted
    );
    let results = crate::engine::registry::GameKind::parse(&p.game.kind)
        .zip(p.game.outcome.as_ref())
        .map(|(k, o)| k.result(l, view, o))
        .unwrap_or_default();
    let pending: Vec<String> = p
        .game
        .seats
        .iter()
        .enumerate()
        .filter(|(_, s)| s.pending)
        .map(|(i, _)| n.seat(u8::try_from(i).unwrap_or(u8::MAX)))
        .collect();
    let d = &view["decision"];
    let war: Vec<String> = list(&view["war"]).iter().map(|x| n.nation_v(x)).collect();
    let effects: Vec<String> = list(&view["round_effects"])
        .iter()
        .map(|x| word(x))
        .collect();
    html! {
        @if over {
            div.status role="status" {
                strong { (t(l, "game_over")) }
                ul.plain {
                    @for s in &results { li { (crate::web::history::sentence(p, s, &|_| None)) } }
                }
            }
        } @else if !p.legal_actions.is_empty() {
            div.status.mine role="status" { strong { (t(l, "your_move")) } }
        } @else if !pending.is_empty() {
            div.status role="status" { (t(l, "waiting_for")) " " strong { (pending.join(", ")) } }
        }
        p.muted {
            (w(l, "round")) " " (word(&view["round"]))
            " · " (word(&view["glory_target"])) " " (w(l, "target"))
            @if d["kind"] == "turn" {
                " · " (w(l, "turn_of")) " " (num(&d["seat"]).map_or_else(|| "?".to_owned(), |s| n.seat(s)))
                " (" (word(&d["actions_left"])) " " (w(l, "actions_left")) ")"
            }
            @if war.len() == 2 { " · " (w(l, "war")) ": " (war.join(" – ")) }
            @if !effects.is_empty() { " · " (w(l, "effects")) ": " (effects.join(", ")) }
        }
        @let open: Vec<&str> = list(&view["missions_open"]).into_iter().filter_map(Value::as_str).collect();
        @if !open.is_empty() {
            p.muted { (w(l, "missions_open")) ":" }
            ul.plain { @for m in &open { li { (n.mission(m)) } } }
        }
    }
}

/// The body of the game page.
pub fn body(p: &GamePage) -> Markup {
    let l = p.locale;
    let Some(view) = p.view.as_ref() else {
        return html! {
            h1 { (title(p)) }
            p.status { (t(l, "status_waiting")) }
        };
    };
    let seats = seat_names(p);
    let n = Names {
        l,
        d: data::load().ok(),
        seats: &seats,
    };
    html! {
        h1 { (title(p)) }
        (status(p, view, &n))
        @if let Some(x) = &p.notes.notice {
            p.notice role="alert" {
                (x.say(l))
            }
        }
        (combat(l, view, &n))
        (decisions(p, view, &n))
        // The viewer's hold before the sea: on a phone it would come after 17 zones.
        (own_panel(p, view, &n))
        div.grid {
            div { (map(p, view, &n)) }
            div { (captains(p, view, &n)) }
        }
        (crate::web::history::history(p, &|_| None))
    }
}

/// Merchants & Marauders' page.
pub struct MerchantsPage;

impl super::Page for MerchantsPage {
    fn body(&self, p: &GamePage, _title: &str) -> Markup {
        body(p)
    }

    fn action(&self, _form: &str, _fields: &super::Posted) -> Result<Value, Notice> {
        // Every form posts a listed action's notation, read before this.
        Err(Notice::Key("choose_listed"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_is_in_four_languages_and_every_kind_of_action_has_a_form_title() {
        for (key, t) in WORDS {
            assert!(t.iter().all(|s| !s.is_empty()), "{key}");
        }
        for (_, kinds) in GROUPS {
            for kind in *kinds {
                assert_ne!(w(Locale::Fr, form_key((*kind).to_owned())), "?", "{kind}");
            }
        }
        for (g, _) in GROUPS {
            assert_ne!(w(Locale::It, g), "?", "{g}");
        }
    }

    #[test]
    fn the_translated_tables_follow_the_data_rows() {
        let d = data::load().unwrap();
        let names = |rows: Vec<&str>, table: &[T]| {
            assert_eq!(rows.len(), table.len());
            for (row, t) in rows.iter().zip(table) {
                assert_eq!(*row, t[0]);
            }
        };
        names(d.goods.iter().map(|g| g.name.as_str()).collect(), &GOODS);
        names(
            d.weapons.iter().map(|g| g.name.as_str()).collect(),
            &WEAPONS,
        );
        names(
            d.modifications.iter().map(|g| g.name.as_str()).collect(),
            &MODIFICATIONS,
        );
        names(d.glory.iter().map(|g| g.name.as_str()).collect(), &GLORY);
        for m in &d.missions {
            assert!(
                OBJECTIVES.iter().any(|(k, _)| *k == m.objective.kind),
                "{} has no words",
                m.id
            );
        }
        for r in &d.rumors {
            if let Some(extra) = &r.extra {
                assert!(RUMOR_EXTRAS.iter().any(|(k, _)| k == extra), "{}", r.id);
            }
        }
        for s in Ship::ALL {
            assert_eq!(d.ship(s).name, ship_words(s)[0]);
        }
        for n in Nation::ALL {
            let row = d.nations.iter().find(|r| r.id == n).unwrap();
            assert_eq!(row.name, nation_words(n)[0]);
        }
    }

    #[test]
    fn a_listed_action_reads_in_words() {
        let seats = vec!["Ada".to_owned(), "Bruno".to_owned()];
        let n = Names {
            l: Locale::Es,
            d: data::load().ok(),
            seats: &seats,
        };
        assert_eq!(choice_text(&n, "move HAV"), "Havana");
        assert_eq!(choice_text(&n, "scout p1"), "Bruno");
        assert_eq!(choice_text(&n, "flee"), "Huir");
        assert_eq!(choice_text(&n, "raid ES"), "como España");
        assert_eq!(choice_text(&n, "sell 0 8"), "Azúcar, Ron");
        assert_eq!(choice_text(&n, "end"), "Terminar el turno");
        assert_eq!(choice_text(&n, "nonsense"), "nonsense");
        assert_eq!(choice_text(&n, "discard glory 0"), "Maestre de navegación");
        assert_ne!(w(Locale::Fr, form_key("discard_glory".to_owned())), "?");
        assert_eq!(choice_text(&n, "discard cargo 8"), "Ron");
    }

    #[test]
    fn cards_missions_and_rumors_read_in_the_readers_language() {
        let seats = vec!["Ada".to_owned()];
        let n = |l| Names {
            l,
            d: data::load().ok(),
            seats: &seats,
        };
        assert_eq!(n(Locale::Fr).glory(0), "Maître de manœuvre");
        assert_eq!(
            n(Locale::En).mission("MIS-12"),
            "MIS-12: deliver 1 Timber to Antigua (claim in St. Maarten with Influence ≥1; \
             7 gold and 1 glory point)"
        );
        assert_eq!(
            n(Locale::Es).rumor("RUM-10"),
            "RUM-10: se comprueba en Guadeloupe con Exploración ≥2; si es cierto: 8 de oro, \
             1 arma especial gratis, 1 punto de gloria"
        );
        assert_eq!(n(Locale::It).rumor("RUM-99"), "RUM-99");
    }
}
