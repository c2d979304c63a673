//! The words of the mails in English, Spanish, Italian and French. Each entry lists the four in
//! that order; `{name}` placeholders are filled by [`fill`]. Cards appear by code only, never by
//! name, and only the cards the recipient may see.

use crate::domain::Locale;

/// One text in the four languages (en, es, it, fr).
pub type T = [&'static str; 4];

pub fn pick(locale: Locale, t: &T) -> &'static str {
    match locale {
        Locale::En => t[0],
        Locale::Es => t[1],
        Locale::It => t[2],
        Locale::Fr => t[3],
    }
}

/// `t` in `locale` with each `{key}` replaced.
pub fn fill(locale: Locale, t: &T, values: &[(&str, &str)]) -> String {
    let mut text = pick(locale, t).to_owned();
    for (key, value) in values {
        text = text.replace(&format!("{{{key}}}"), value);
    }
    text
}

pub const HELLO: T = [
    "Hello {name},",
    "Hola, {name}:",
    "Ciao {name},",
    "Bonjour {name},",
];
pub const AND: T = ["and", "y", "e", "et"];
pub const NOTHING: T = ["nothing", "nada", "niente", "rien"];

pub const INVITE_SUBJECT: T = [
    "{inviter} invites you to play {game}",
    "{inviter} te invita a jugar a {game}",
    "{inviter} ti invita a giocare a {game}",
    "{inviter} vous invite à jouer à {game}",
];
pub const INVITE_BODY: T = [
    "{inviter} invites you to a game of {game} (rules: {variant}) with {players}.",
    "{inviter} te invita a una partida de {game} (reglas: {variant}) con {players}.",
    "{inviter} ti invita a una partita di {game} (regole: {variant}) con {players}.",
    "{inviter} vous invite à une partie de {game} (règles : {variant}) avec {players}.",
];
pub const INVITE_CTA: T = [
    "Accept the invitation:",
    "Acepta la invitación:",
    "Accetta l'invito:",
    "Acceptez l'invitation :",
];

pub const TURN_SUBJECT: T = [
    "Your move in {game} with {opponents}",
    "Te toca en {game} con {opponents}",
    "Tocca a te in {game} con {opponents}",
    "À vous de jouer dans {game} avec {opponents}",
];
pub const DECIDE_SUBJECT: T = [
    "You must decide in {game} with {opponents}",
    "Debes decidir en {game} con {opponents}",
    "Devi decidere in {game} con {opponents}",
    "Vous devez décider dans {game} avec {opponents}",
];
pub const TURN_BODY: T = [
    "The game of {game} with {opponents} is waiting for you.",
    "La partida de {game} con {opponents} te espera.",
    "La partita di {game} con {opponents} ti aspetta.",
    "La partie de {game} avec {opponents} vous attend.",
];
pub const SINCE: T = [
    "Since your last move:",
    "Desde tu última jugada:",
    "Dalla tua ultima mossa:",
    "Depuis votre dernier coup :",
];
pub const PLAY_CTA: T = [
    "Play now (no password needed):",
    "Juega ahora (sin contraseña):",
    "Gioca ora (senza password):",
    "Jouez maintenant (sans mot de passe) :",
];
pub const YOUR_HAND: T = [
    "Your hand: {cards}",
    "Tu mano: {cards}",
    "La tua mano: {cards}",
    "Votre main : {cards}",
];
pub const YOUR_TOKENS: T = [
    "Your tokens: {tokens}",
    "Tus fichas: {tokens}",
    "I tuoi gettoni: {tokens}",
    "Vos jetons : {tokens}",
];

pub const OVER_SUBJECT: T = [
    "Game over: {game} with {opponents}",
    "Fin de la partida: {game} con {opponents}",
    "Partita finita: {game} con {opponents}",
    "Partie terminée : {game} avec {opponents}",
];
pub const YOU_WON: T = ["You won.", "Has ganado.", "Hai vinto.", "Vous avez gagné."];
pub const OTHERS_WON: T = [
    "{names} won.",
    "Ha ganado {names}.",
    "Ha vinto {names}.",
    "{names} a gagné.",
];
pub const SHARED_WIN: T = [
    "Shared victory: {names}.",
    "Victoria compartida: {names}.",
    "Vittoria condivisa: {names}.",
    "Victoire partagée : {names}.",
];
pub const FINAL_SCORE: T = [
    "Final score:",
    "Puntuación final:",
    "Punteggio finale:",
    "Score final :",
];
pub const SCORE_LINE: T = [
    "{name}: {points} districts won (tie-break total {total})",
    "{name}: {points} distritos ganados (desempate {total})",
    "{name}: {points} distretti vinti (spareggio {total})",
    "{name} : {points} quartiers gagnés (départage {total})",
];
pub const SEED: T = [
    "The secret seed of this game was {seed}. Its SHA-256 is {commitment}, the commitment published when the game was created, so the dice and shuffles were fixed before anyone played.",
    "La semilla secreta de esta partida era {seed}. Su SHA-256 es {commitment}, el compromiso publicado al crear la partida: los dados y las barajas quedaron fijados antes de jugar.",
    "Il seme segreto di questa partita era {seed}. Il suo SHA-256 è {commitment}, l'impegno pubblicato alla creazione della partita: dadi e mescolate erano fissati prima di giocare.",
    "La graine secrète de cette partie était {seed}. Son SHA-256 est {commitment}, l'engagement publié à la création de la partie : dés et mélanges étaient fixés avant de jouer.",
];
pub const VERIFY: T = [
    "To replay every roll and shuffle from the seed, open {url} or run: herald verify {id}",
    "Para repetir cada tirada y baraja desde la semilla, abre {url} o ejecuta: herald verify {id}",
    "Per rigiocare ogni tiro e mescolata dal seme, apri {url} o esegui: herald verify {id}",
    "Pour rejouer chaque lancer et mélange depuis la graine, ouvrez {url} ou lancez : herald verify {id}",
];
pub const SEE_GAME: T = [
    "See the game:",
    "Ver la partida:",
    "Vedi la partita:",
    "Voir la partie :",
];

pub const SIGN_IN_SUBJECT: T = [
    "Your sign-in link",
    "Tu enlace para entrar",
    "Il tuo link di accesso",
    "Votre lien de connexion",
];
pub const SIGN_IN_BODY: T = [
    "Open this link within {minutes} minutes to sign in. It works once. If you did not ask for it, ignore this mail.",
    "Abre este enlace en los próximos {minutes} minutos para entrar. Solo funciona una vez. Si no lo has pedido, ignora este correo.",
    "Apri questo link entro {minutes} minuti per accedere. Funziona una sola volta. Se non l'hai chiesto, ignora questa mail.",
    "Ouvrez ce lien dans les {minutes} minutes pour vous connecter. Il ne fonctionne qu'une fois. Si vous ne l'avez pas demandé, ignorez ce message.",
];
pub const SIGN_IN_CTA: T = ["Sign in:", "Entrar:", "Accedi:", "Se connecter :"];

pub const DIGEST_SUBJECT: T = [
    "Games waiting for you: {count}",
    "Partidas que te esperan: {count}",
    "Partite che ti aspettano: {count}",
    "Parties qui vous attendent : {count}",
];
pub const DIGEST_BODY: T = [
    "These games are waiting for you, the longest waiting first:",
    "Estas partidas te esperan, primero la que más lleva esperando:",
    "Queste partite ti aspettano, prima quella che aspetta da più tempo:",
    "Ces parties vous attendent, la plus ancienne d'abord :",
];
pub const DIGEST_LINE: T = [
    "{game} with {opponents}, waiting since {since}: {link}",
    "{game} con {opponents}, esperando desde {since}: {link}",
    "{game} con {opponents}, in attesa dal {since}: {link}",
    "{game} avec {opponents}, en attente depuis le {since} : {link}",
];

pub const FOOTER: T = [
    "You receive this mail because you play on herald. To stop turn mails: {url}",
    "Recibes este correo porque juegas en herald. Para no recibir más avisos de turno: {url}",
    "Ricevi questa mail perché giochi su herald. Per non ricevere più avvisi di turno: {url}",
    "Vous recevez ce message car vous jouez sur herald. Pour ne plus recevoir d'avis de tour : {url}",
];

// Magnate events (the recipient sees only their own draws and preferences).
pub const ROLLED: T = [
    "{p} rolled {a} and {b}.",
    "{p} tiró {a} y {b}.",
    "{p} ha tirato {a} e {b}.",
    "{p} a lancé {a} et {b}.",
];
pub const TAXED: T = [
    "Taxation on {suits}: {list}.",
    "Impuesto sobre {suits}: {list}.",
    "Tassa su {suits}: {list}.",
    "Impôt sur {suits} : {list}.",
];
pub const RETURNED: T = [
    "{p} returned {t}",
    "{p} devolvió {t}",
    "{p} ha reso {t}",
    "{p} a rendu {t}",
];
pub const INCOME: T = [
    "Income: {list}.",
    "Ingresos: {list}.",
    "Entrate: {list}.",
    "Revenus : {list}.",
];
pub const GAINED: T = ["{p} {t}", "{p} {t}", "{p} {t}", "{p} {t}"];
pub const BUILT: T = [
    "{p} built {card} in district {d}, paying {t}.",
    "{p} construyó {card} en el distrito {d}, pagando {t}.",
    "{p} ha costruito {card} nel distretto {d}, pagando {t}.",
    "{p} a construit {card} dans le quartier {d}, en payant {t}.",
];
pub const DEEDED: T = [
    "{p} took a deed on {card} in district {d}, paying {t}.",
    "{p} tomó una escritura de {card} en el distrito {d}, pagando {t}.",
    "{p} ha preso un atto su {card} nel distretto {d}, pagando {t}.",
    "{p} a pris un titre sur {card} dans le quartier {d}, en payant {t}.",
];
pub const SOLD: T = [
    "{p} sold {card} for {t}.",
    "{p} vendió {card} por {t}.",
    "{p} ha venduto {card} per {t}.",
    "{p} a vendu {card} pour {t}.",
];
pub const DEVELOPED: T = [
    "{p} developed {card}, paying {t}.",
    "{p} desarrolló {card}, pagando {t}.",
    "{p} ha sviluppato {card}, pagando {t}.",
    "{p} a développé {card}, en payant {t}.",
];
pub const TRADED: T = [
    "{p} traded {t} for one {suit}.",
    "{p} cambió {t} por un {suit}.",
    "{p} ha scambiato {t} per un {suit}.",
    "{p} a échangé {t} contre un {suit}.",
];
pub const PREFERRED: T = [
    "{p} chose {suit} for {card}.",
    "{p} eligió {suit} para {card}.",
    "{p} ha scelto {suit} per {card}.",
    "{p} a choisi {suit} pour {card}.",
];
pub const DREW: T = [
    "{p} drew {card}.",
    "{p} robó {card}.",
    "{p} ha pescato {card}.",
    "{p} a pioché {card}.",
];
pub const DREW_FACE_DOWN: T = [
    "{p} drew a card.",
    "{p} robó una carta.",
    "{p} ha pescato una carta.",
    "{p} a pioché une carte.",
];
pub const DREW_NOTHING: T = [
    "{p} drew nothing: the draw pile is empty.",
    "{p} no robó nada: el mazo está vacío.",
    "{p} non ha pescato: il mazzo è vuoto.",
    "{p} n'a rien pioché : la pioche est vide.",
];
pub const RESHUFFLED: T = [
    "The discard pile became the new draw pile.",
    "Los descartes se barajaron como nuevo mazo.",
    "Gli scarti sono diventati il nuovo mazzo.",
    "La défausse est devenue la nouvelle pioche.",
];
pub const FINAL_TURNS: T = [
    "Final turns for: {names}.",
    "Últimos turnos para: {names}.",
    "Ultimi turni per: {names}.",
    "Derniers tours pour : {names}.",
];
pub const RESIGNED: T = [
    "{p} resigned.",
    "{p} abandonó.",
    "{p} ha abbandonato.",
    "{p} a abandonné.",
];
pub const OTHER_EVENT: T = ["{p}: {what}", "{p}: {what}", "{p}: {what}", "{p} : {what}"];

// Clocks (design.md section 14).
pub const TIMED_OUT: T = [
    "{p} ran out of time.",
    "A {p} se le acabó el tiempo.",
    "{p} ha esaurito il tempo.",
    "{p} a dépassé son temps.",
];
pub const YOU_LOST_ON_TIME: T = [
    "You lost on time: your deadline passed without a move.",
    "Has perdido por tiempo: tu plazo pasó sin jugada.",
    "Hai perso per tempo: la tua scadenza è passata senza mossa.",
    "Vous avez perdu au temps : votre délai est passé sans coup.",
];
pub const LOST_ON_TIME: T = [
    "{p} lost on time: their deadline passed without a move.",
    "{p} ha perdido por tiempo: su plazo pasó sin jugada.",
    "{p} ha perso per tempo: la sua scadenza è passata senza mossa.",
    "{p} a perdu au temps : son délai est passé sans coup.",
];
pub const DEADLINE: T = [
    "Your deadline: {when} ({left} from now).",
    "Tu plazo: {when} (dentro de {left}).",
    "La tua scadenza: {when} (tra {left}).",
    "Votre délai : {when} (dans {left}).",
];
pub const REMINDER_SUBJECT: T = [
    "Reminder: your move in {game} with {opponents}, {left} left",
    "Recordatorio: te toca en {game} con {opponents}, quedan {left}",
    "Promemoria: tocca a te in {game} con {opponents}, restano {left}",
    "Rappel : à vous de jouer dans {game} avec {opponents}, il reste {left}",
];
pub const REMINDER_BODY: T = [
    "Your time to decide in {game} with {opponents} runs out at {when}. After that the game decides for you, or you lose on time.",
    "Tu tiempo para decidir en {game} con {opponents} se acaba el {when}. Después la partida decide por ti, o pierdes por tiempo.",
    "Il tuo tempo per decidere in {game} con {opponents} scade il {when}. Dopo, la partita decide per te, o perdi per tempo.",
    "Votre temps pour décider dans {game} avec {opponents} expire le {when}. Ensuite la partie décide pour vous, ou vous perdez au temps.",
];
pub const VACATION_SUBJECT: T = [
    "{p} is on vacation ({game})",
    "{p} está de vacaciones ({game})",
    "{p} è in vacanza ({game})",
    "{p} est en vacances ({game})",
];
pub const VACATION_BODY: T = [
    "{p} is on vacation until {until}. Their deadlines in {game} with you are paused, and move on by the time away when they come back.",
    "{p} está de vacaciones hasta el {until}. Sus plazos en {game} contigo quedan en pausa y se alargan el tiempo que esté fuera.",
    "{p} è in vacanza fino al {until}. Le sue scadenze in {game} con te sono sospese e si spostano del tempo di assenza al rientro.",
    "{p} est en vacances jusqu'au {until}. Ses délais dans {game} avec vous sont suspendus et repoussés du temps d'absence à son retour.",
];
