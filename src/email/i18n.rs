//! The words of the mails in English, Spanish, Italian and French. Each entry lists the four in
//! that order; `{name}` placeholders are filled by [`fill`]. Cards appear by code only, never by
//! name, and only the cards the recipient may see.

pub use crate::present::{T, fill, pick};

pub const HELLO: T = [
    "Hello {name},",
    "Hola, {name}:",
    "Ciao {name},",
    "Bonjour {name},",
];

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

pub const SIGN_UP_SUBJECT: T = [
    "Finish signing up to herald",
    "Termina de registrarte en herald",
    "Completa la registrazione a herald",
    "Terminez votre inscription à herald",
];
pub const WELCOME: T = ["Welcome,", "Bienvenido:", "Benvenuto,", "Bienvenue,"];
pub const SIGN_UP_BODY: T = [
    "Open this link within {hours} hours and choose the name other players will see. It works once. If you did not ask for it, ignore this mail: no account is made without it.",
    "Abre este enlace en las próximas {hours} horas y elige el nombre que verán los demás jugadores. Solo funciona una vez. Si no lo has pedido, ignora este correo: sin él no se crea ninguna cuenta.",
    "Apri questo link entro {hours} ore e scegli il nome che vedranno gli altri giocatori. Funziona una sola volta. Se non l'hai chiesto, ignora questa mail: senza di esso non viene creato nessun account.",
    "Ouvrez ce lien dans les {hours} heures et choisissez le nom que verront les autres joueurs. Il ne fonctionne qu'une fois. Si vous ne l'avez pas demandé, ignorez ce message : aucun compte n'est créé sans lui.",
];
pub const SIGN_UP_CTA: T = [
    "Choose your name:",
    "Elige tu nombre:",
    "Scegli il tuo nome:",
    "Choisissez votre nom :",
];

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

pub const RULES_LINE: T = [
    "The rules of {game}: {url}",
    "Las reglas de {game}: {url}",
    "Le regole di {game}: {url}",
    "Les règles de {game} : {url}",
];

// Invitations (design.md section 19).
pub const DECLINED_SUBJECT: T = [
    "{p} declined your invitation to {game}",
    "{p} rechazó tu invitación a {game}",
    "{p} ha rifiutato il tuo invito a {game}",
    "{p} a décliné votre invitation à {game}",
];
pub const DECLINED_BODY: T = [
    "{p} declined your invitation to {game}. Their seat stays empty until you invite someone else.",
    "{p} rechazó tu invitación a {game}. Su asiento queda vacío hasta que invites a otra persona.",
    "{p} ha rifiutato il tuo invito a {game}. Il suo posto resta vuoto finché non inviti qualcun altro.",
    "{p} a décliné votre invitation à {game}. Sa place reste vide jusqu'à ce que vous invitiez quelqu'un d'autre.",
];

// Clocks (design.md section 14).
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

// Moves by email (design.md section 18).
pub const REPLY_HOW: T = [
    "To play by email, reply to this mail with your move on the first line, in notation (several actions separated by “;”) or by its number alone. Your legal moves now:",
    "Para jugar por correo, responde a este mensaje con tu jugada en la primera línea, en notación (varias acciones separadas por «;») o solo con su número. Tus jugadas legales ahora:",
    "Per giocare via email, rispondi a questo messaggio con la tua mossa nella prima riga, in notazione (più azioni separate da «;») o solo con il suo numero. Le tue mosse legali ora:",
    "Pour jouer par e-mail, répondez à ce message avec votre coup sur la première ligne, en notation (plusieurs actions séparées par « ; ») ou par son seul numéro. Vos coups légaux maintenant :",
];
pub const MORE_MOVES: T = [
    "… and {n} more on the game page",
    "… y {n} más en la página de la partida",
    "… e altre {n} nella pagina della partita",
    "… et {n} autres sur la page de la partie",
];
pub const PLAYED_SUBJECT: T = [
    "Move played in {game} with {opponents}",
    "Jugada hecha en {game} con {opponents}",
    "Mossa giocata in {game} con {opponents}",
    "Coup joué dans {game} avec {opponents}",
];
pub const REFUSED_SUBJECT: T = [
    "Move not played in {game} with {opponents}",
    "Jugada no hecha en {game} con {opponents}",
    "Mossa non giocata in {game} con {opponents}",
    "Coup non joué dans {game} avec {opponents}",
];
pub const PLAYED_BODY: T = [
    "Your move “{line}” was played.",
    "Tu jugada «{line}» se ha hecho.",
    "La tua mossa «{line}» è stata giocata.",
    "Votre coup « {line} » a été joué.",
];
pub const REFUSED_BODY: T = [
    "Your move “{line}” was not played.",
    "Tu jugada «{line}» no se ha hecho.",
    "La tua mossa «{line}» non è stata giocata.",
    "Votre coup « {line} » n'a pas été joué.",
];
pub const WHAT_HAPPENED: T = [
    "What happened:",
    "Lo que ha pasado:",
    "Cosa è successo:",
    "Ce qui s'est passé :",
];
pub const NOT_YOUR_TURN_ANY_MORE: T = [
    "It is not your turn any more: you will get a mail when it is.",
    "Ya no es tu turno: recibirás un correo cuando lo sea.",
    "Non è più il tuo turno: riceverai un'email quando lo sarà.",
    "Ce n'est plus votre tour : vous recevrez un e-mail quand ce le sera.",
];
pub const STALE: T = [
    "The game has moved on since the mail you answered; here is where it stands now.",
    "La partida ha avanzado desde el correo que respondiste; así está ahora.",
    "La partita è andata avanti dall'email a cui hai risposto; ecco com'è ora.",
    "La partie a avancé depuis le message auquel vous avez répondu ; voici où elle en est.",
];
pub const NOT_YOUR_TURN_NOW: T = [
    "It is not your turn.",
    "No es tu turno.",
    "Non è il tuo turno.",
    "Ce n'est pas votre tour.",
];
pub const OVER_NOW: T = [
    "The game is over.",
    "La partida ha terminado.",
    "La partita è finita.",
    "La partie est terminée.",
];
pub const RULE_EXPLAINED: T = [
    "What rule {rule} says: {url}",
    "Lo que dice la regla {rule}: {url}",
    "Cosa dice la regola {rule}: {url}",
    "Ce que dit la règle {rule} : {url}",
];
pub const RULE_BROKEN: T = [
    "Rule {rule}: {detail}",
    "Regla {rule}: {detail}",
    "Regola {rule}: {detail}",
    "Règle {rule} : {detail}",
];
pub const UNREADABLE: T = [
    "It could not be read as a move: {detail}",
    "No se ha podido leer como jugada: {detail}",
    "Non è stato possibile leggerla come mossa: {detail}",
    "Il n'a pas pu être lu comme un coup : {detail}",
];
pub const NO_MOVE: T = [
    "No move was found in your reply: write it on the first line, above the quoted mail.",
    "No se ha encontrado ninguna jugada en tu respuesta: escríbela en la primera línea, encima del correo citado.",
    "Nessuna mossa trovata nella tua risposta: scrivila nella prima riga, sopra l'email citata.",
    "Aucun coup n'a été trouvé dans votre réponse : écrivez-le sur la première ligne, au-dessus du message cité.",
];
pub const NOT_PLAYED_SUBJECT: T = [
    "Your mail to herald was not played",
    "Tu correo a herald no se ha jugado",
    "La tua email a herald non è stata giocata",
    "Votre message à herald n'a pas été joué",
];
pub const UNKNOWN_ADDRESS: T = [
    "This reply address is not valid: nothing was played. Answer the latest mail herald sent you, or open the game from its link.",
    "Esta dirección de respuesta no es válida: no se ha jugado nada. Responde al último correo que te envió herald o abre la partida desde su enlace.",
    "Questo indirizzo di risposta non è valido: non è stato giocato nulla. Rispondi all'ultima email che herald ti ha inviato, o apri la partita dal suo link.",
    "Cette adresse de réponse n'est pas valide : rien n'a été joué. Répondez au dernier message que herald vous a envoyé, ou ouvrez la partie depuis son lien.",
];
pub const EXPIRED_ADDRESS: T = [
    "This reply address has expired: nothing was played. Answer the latest mail herald sent you, or open the game from its link.",
    "Esta dirección de respuesta ha caducado: no se ha jugado nada. Responde al último correo que te envió herald o abre la partida desde su enlace.",
    "Questo indirizzo di risposta è scaduto: non è stato giocato nulla. Rispondi all'ultima email che herald ti ha inviato, o apri la partita dal suo link.",
    "Cette adresse de réponse a expiré : rien n'a été joué. Répondez au dernier message que herald vous a envoyé, ou ouvrez la partie depuis son lien.",
];
pub const OTHER_SEAT: T = [
    "Only the player of this seat can move by replying to its mails, from the address herald writes to: nothing was played.",
    "Solo el jugador de este puesto puede jugar respondiendo a sus correos, desde la dirección a la que escribe herald: no se ha jugado nada.",
    "Solo il giocatore di questo posto può muovere rispondendo alle sue email, dall'indirizzo a cui scrive herald: non è stato giocato nulla.",
    "Seul le joueur de cette place peut jouer en répondant à ses messages, depuis l'adresse à laquelle herald écrit : rien n'a été joué.",
];
pub const FORWARDED: T = [
    "A forwarded mail is never read as a move: nothing was played. Reply to the mail itself.",
    "Un correo reenviado nunca se lee como jugada: no se ha jugado nada. Responde al propio correo.",
    "Un'email inoltrata non viene mai letta come mossa: non è stato giocato nulla. Rispondi all'email stessa.",
    "Un message transféré n'est jamais lu comme un coup : rien n'a été joué. Répondez au message lui-même.",
];
pub const ONCE_A_DAY: T = [
    "herald answers mails like this one once a day at most.",
    "herald responde a correos como este una vez al día como mucho.",
    "herald risponde a email come questa al massimo una volta al giorno.",
    "herald répond à ce genre de message une fois par jour au plus.",
];
