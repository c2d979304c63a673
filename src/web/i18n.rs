//! The words of the pages in en, es, it, fr (the account's locale; English when unknown). Rule
//! sentences from the engine stay as the engine writes them; the rule ID is the same everywhere.

use crate::domain::Locale;

/// Each entry: key, then en, es, it, fr.
const STRINGS: &[(&str, [&str; 4])] = &[
    ("clock", ["Clock", "Reloj", "Orologio", "Pendule"]),
    (
        "no_clock",
        [
            "No time limit",
            "Sin límite de tiempo",
            "Nessun limite di tempo",
            "Sans limite de temps",
        ],
    ),
    (
        "per_move",
        [
            "{t} per move",
            "{t} por jugada",
            "{t} per mossa",
            "{t} par coup",
        ],
    ),
    (
        "fischer",
        [
            "Fischer: {t} to start, +{i} per move, at most {m}",
            "Fischer: {t} al inicio, +{i} por jugada, como máximo {m}",
            "Fischer: {t} all'inizio, +{i} per mossa, al massimo {m}",
            "Fischer : {t} au départ, +{i} par coup, au plus {m}",
        ],
    ),
    (
        "deadline_left",
        [
            "until {when} ({left} left)",
            "hasta el {when} (quedan {left})",
            "fino al {when} (restano {left})",
            "jusqu'au {when} (reste {left})",
        ],
    ),
    (
        "bank",
        ["bank {t}", "reserva {t}", "riserva {t}", "réserve {t}"],
    ),
    (
        "timeouts",
        [
            "{n} timeouts in a row",
            "{n} tiempos agotados seguidos",
            "{n} tempi scaduti di fila",
            "{n} dépassements de suite",
        ],
    ),
    (
        "away_held",
        [
            "on vacation: the deadline waits for their return",
            "de vacaciones: el plazo espera a su vuelta",
            "in vacanza: la scadenza attende il suo ritorno",
            "en vacances : l'échéance attend son retour",
        ],
    ),
    (
        "away_running",
        [
            "on vacation (this game's clock runs on)",
            "de vacaciones (el reloj de esta partida sigue)",
            "in vacanza (l'orologio di questa partita continua)",
            "en vacances (l'horloge de cette partie continue)",
        ],
    ),
    (
        "dropped",
        [
            "dropped: decided by default",
            "retirado: decide la partida",
            "ritirato: decide la partita",
            "retiré : la partie décide",
        ],
    ),
    (
        "reminders",
        [
            "Reminders before a deadline (hours, comma-separated; empty for none)",
            "Recordatorios antes de un plazo (horas, separadas por comas; vacío para ninguno)",
            "Promemoria prima di una scadenza (ore, separate da virgole; vuoto per nessuno)",
            "Rappels avant un délai (heures, séparées par des virgules ; vide pour aucun)",
        ],
    ),
    (
        "time_zone",
        [
            "Time zone (IANA name, e.g. Europe/Madrid)",
            "Zona horaria (nombre IANA, p. ej. Europe/Madrid)",
            "Fuso orario (nome IANA, es. Europe/Rome)",
            "Fuseau horaire (nom IANA, p. ex. Europe/Paris)",
        ],
    ),
    (
        "vacation",
        ["Vacation", "Vacaciones", "Vacanza", "Vacances"],
    ),
    (
        "vacation_days",
        [
            "Days available: {n}",
            "Días disponibles: {n}",
            "Giorni disponibili: {n}",
            "Jours disponibles : {n}",
        ],
    ),
    (
        "vacation_since",
        [
            "On vacation since {when}, until {until} at the latest.",
            "De vacaciones desde el {when}, hasta el {until} como tarde.",
            "In vacanza dal {when}, al più tardi fino al {until}.",
            "En vacances depuis le {when}, au plus tard jusqu'au {until}.",
        ],
    ),
    (
        "go_on_vacation",
        [
            "Go on vacation",
            "Irme de vacaciones",
            "Andare in vacanza",
            "Partir en vacances",
        ],
    ),
    ("come_back", ["Come back", "Volver", "Rientrare", "Revenir"]),
    (
        "vacation_auto",
        [
            "Take vacation by itself when a deadline would pass",
            "Tomar vacaciones solo cuando un plazo vaya a vencer",
            "Prendere la vacanza da sé quando una scadenza sta per passare",
            "Prendre des vacances d'office quand un délai va expirer",
        ],
    ),
    // Why a vacation does not start (the service's refusals, in the reader's words).
    (
        "vacation_already",
        [
            "You are already on vacation. Nothing was changed.",
            "Ya estás de vacaciones. No se cambió nada.",
            "Sei già in vacanza. Non è cambiato nulla.",
            "Vous êtes déjà en vacances. Rien n'a été modifié.",
        ],
    ),
    (
        "vacation_no_day_left",
        [
            "You have no vacation day left: one more comes with every {n} days of membership. Nothing was changed.",
            "No te queda ningún día de vacaciones: se suma uno por cada {n} días como miembro. No se cambió nada.",
            "Non ti resta nessun giorno di vacanza: se ne aggiunge uno ogni {n} giorni di iscrizione. Non è cambiato nulla.",
            "Il ne vous reste aucun jour de vacances : un de plus s'ajoute tous les {n} jours d'inscription. Rien n'a été modifié.",
        ],
    ),
    (
        "vacation_too_many_days",
        [
            "You have only {n} vacation days left. Nothing was changed.",
            "Solo te quedan {n} días de vacaciones. No se cambió nada.",
            "Ti restano solo {n} giorni di vacanza. Non è cambiato nulla.",
            "Il ne vous reste que {n} jours de vacances. Rien n'a été modifié.",
        ],
    ),
    ("app", ["Herald", "Herald", "Herald", "Herald"]),
    (
        "skip",
        [
            "Skip to the game",
            "Saltar al juego",
            "Vai al gioco",
            "Aller au jeu",
        ],
    ),
    (
        "my_games",
        ["My games", "Mis partidas", "Le mie partite", "Mes parties"],
    ),
    (
        "new_game",
        [
            "New game",
            "Nueva partida",
            "Nuova partita",
            "Nouvelle partie",
        ],
    ),
    (
        "settings",
        [
            "Notifications",
            "Notificaciones",
            "Notifiche",
            "Notifications",
        ],
    ),
    ("sign_in", ["Sign in", "Entrar", "Accedi", "Se connecter"]),
    ("sign_out", ["Sign out", "Salir", "Esci", "Se déconnecter"]),
    (
        "sign_out_everywhere",
        [
            "Sign out everywhere",
            "Salir en todas partes",
            "Esci ovunque",
            "Se déconnecter partout",
        ],
    ),
    (
        "your_move",
        ["Your move", "Te toca", "Tocca a te", "À vous de jouer"],
    ),
    (
        "waiting_for",
        [
            "Waiting for",
            "Esperando a",
            "In attesa di",
            "En attente de",
        ],
    ),
    ("you", ["you", "tú", "tu", "vous"]),
    (
        "districts",
        ["Districts", "Distritos", "Distretti", "Quartiers"],
    ),
    (
        "district",
        ["District", "Distrito", "Distretto", "Quartier"],
    ),
    (
        "your_hand",
        ["Your hand", "Tu mano", "La tua mano", "Votre main"],
    ),
    (
        "cards_in_hand",
        [
            "cards in hand",
            "cartas en la mano",
            "carte in mano",
            "cartes en main",
        ],
    ),
    ("supply", ["Supply", "Reserva", "Riserva", "Réserve"]),
    ("crowns", ["Crowns", "Coronas", "Corone", "Couronnes"]),
    ("players", ["Players", "Jugadores", "Giocatori", "Joueurs"]),
    (
        "last_roll",
        [
            "Last roll",
            "Última tirada",
            "Ultimo tiro",
            "Dernier lancer",
        ],
    ),
    (
        "income_rank",
        [
            "income for rank",
            "ingresos por rango",
            "rendita per il rango",
            "revenu pour le rang",
        ],
    ),
    ("taxed", ["taxed", "gravado", "tassato", "taxé"]),
    (
        "no_tax",
        ["no tax", "sin impuesto", "nessuna tassa", "pas de taxe"],
    ),
    ("income", ["Income", "Ingresos", "Rendita", "Revenu"]),
    (
        "tax_paid",
        ["Tax paid", "Impuesto pagado", "Tassa pagata", "Taxe payée"],
    ),
    ("draw_pile", ["Draw pile", "Mazo", "Mazzo", "Pioche"]),
    ("discard", ["Discard", "Descartes", "Scarti", "Défausse"]),
    ("cards", ["cards", "cartas", "carte", "cartes"]),
    ("turn", ["Turn", "Turno", "Turno", "Tour"]),
    (
        "card_played",
        [
            "card played",
            "carta jugada",
            "carta giocata",
            "carte jouée",
        ],
    ),
    (
        "card_not_played",
        [
            "no card played yet",
            "aún sin carta jugada",
            "nessuna carta ancora giocata",
            "pas encore de carte jouée",
        ],
    ),
    (
        "standings",
        ["Standings", "Clasificación", "Classifica", "Classement"],
    ),
    (
        "districts_won",
        [
            "districts won",
            "distritos ganados",
            "distretti vinti",
            "quartiers gagnés",
        ],
    ),
    ("total", ["total", "total", "totale", "total"]),
    (
        "history",
        ["History", "Historial", "Cronologia", "Historique"],
    ),
    (
        "actions",
        [
            "Your actions",
            "Tus acciones",
            "Le tue azioni",
            "Vos actions",
        ],
    ),
    ("deed", ["deed", "escritura", "atto", "titre"]),
    (
        "property",
        ["property", "propiedad", "proprietà", "propriété"],
    ),
    ("tokens", ["tokens", "fichas", "gettoni", "jetons"]),
    ("of", ["of", "de", "di", "sur"]),
    (
        "prefers",
        [
            "income preference",
            "preferencia de ingresos",
            "preferenza di rendita",
            "préférence de revenu",
        ],
    ),
    ("build", ["Build", "Construir", "Costruire", "Construire"]),
    (
        "deed_help",
        [
            "Buy a deed: the card goes to a district unfinished, for one token of each of its suits; develop it on later turns.",
            "Compra una escritura: la carta va a un distrito sin terminar, por una ficha de cada uno de sus palos; desarróllala en turnos siguientes.",
            "Compra un atto: la carta va in un distretto incompiuta, per un gettone di ciascuno dei suoi semi; sviluppala nei turni seguenti.",
            "Achetez un titre : la carte va dans un quartier inachevée, pour un jeton de chacune de ses couleurs ; développez-la aux tours suivants.",
        ],
    ),
    (
        "develop_help",
        [
            "Put tokens of its suits on one of your deeds; it is built when its tokens reach its rank.",
            "Pon fichas de sus palos en una de tus escrituras; se construye cuando sus fichas alcanzan su rango.",
            "Metti gettoni dei suoi semi su uno dei tuoi atti; è costruito quando i gettoni raggiungono il suo valore.",
            "Placez des jetons de ses couleurs sur l'un de vos titres ; il est bâti quand ses jetons atteignent son rang.",
        ],
    ),
    (
        "trade_help",
        [
            "Give three tokens to the bank for one token of another suit.",
            "Da tres fichas a la banca por una ficha de otro palo.",
            "Dai tre gettoni alla banca per un gettone di un altro seme.",
            "Donnez trois jetons à la banque pour un jeton d'une autre couleur.",
        ],
    ),
    ("choose", ["Choose", "Elige", "Scegli", "Choisissez"]),
    (
        "nothing_to_do",
        [
            "Nothing to do until it is your turn.",
            "Nada que hacer hasta tu turno.",
            "Niente da fare fino al tuo turno.",
            "Rien à faire avant votre tour.",
        ],
    ),
    (
        "build_help",
        [
            "Build a card outright: pay its rank in tokens of its suits; each choice below is a place and a payment you can make now.",
            "Construye una carta directamente: paga su rango en fichas de sus palos; cada opción es un lugar y un pago que puedes hacer ahora.",
            "Costruisci subito una carta: paga il suo valore in gettoni dei suoi semi; ogni scelta è un posto e un pagamento che puoi fare ora.",
            "Bâtissez une carte directement : payez son rang en jetons de ses couleurs ; chaque choix est un lieu et un paiement possibles maintenant.",
        ],
    ),
    (
        "deed_action",
        [
            "Buy a deed",
            "Comprar una escritura",
            "Comprare un atto",
            "Acheter un titre",
        ],
    ),
    ("sell", ["Sell", "Vender", "Vendere", "Vendre"]),
    (
        "develop",
        [
            "Develop a deed",
            "Desarrollar una escritura",
            "Sviluppare un atto",
            "Développer un titre",
        ],
    ),
    (
        "trade",
        [
            "Trade with the bank",
            "Cambiar con la banca",
            "Scambiare con la banca",
            "Échanger avec la banque",
        ],
    ),
    (
        "give",
        [
            "Give (three tokens)",
            "Dar (tres fichas)",
            "Dai (tre gettoni)",
            "Donner (trois jetons)",
        ],
    ),
    ("take", ["Take", "Tomar", "Prendi", "Prendre"]),
    (
        "prefer",
        [
            "Set a deed preference",
            "Fijar la preferencia de una escritura",
            "Imposta la preferenza di un atto",
            "Fixer la préférence d'un titre",
        ],
    ),
    (
        "end",
        [
            "End the turn",
            "Terminar el turno",
            "Termina il turno",
            "Finir le tour",
        ],
    ),
    ("card", ["Card", "Carta", "Carta", "Carte"]),
    ("suit", ["Suit", "Palo", "Seme", "Couleur"]),
    ("payment", ["Payment", "Pago", "Pagamento", "Paiement"]),
    (
        "refused",
        ["Not accepted", "No aceptado", "Non accettato", "Refusé"],
    ),
    (
        "stale",
        [
            "The game changed meanwhile; here it is as it stands now.",
            "La partida cambió entretanto; así está ahora.",
            "La partita è cambiata nel frattempo; eccola com'è ora.",
            "La partie a changé entre-temps ; la voici telle qu'elle est.",
        ],
    ),
    (
        "not_your_turn",
        [
            "It is not your turn.",
            "No es tu turno.",
            "Non è il tuo turno.",
            "Ce n'est pas votre tour.",
        ],
    ),
    (
        "csrf",
        [
            "This form has expired; please try again.",
            "Este formulario ha caducado; inténtalo de nuevo.",
            "Questo modulo è scaduto; riprova.",
            "Ce formulaire a expiré ; veuillez réessayer.",
        ],
    ),
    (
        "game_over",
        [
            "The game is over.",
            "La partida ha terminado.",
            "La partita è finita.",
            "La partie est terminée.",
        ],
    ),
    ("winner", ["Winner", "Ganador", "Vincitore", "Gagnant"]),
    (
        "spectator",
        [
            "You are watching this game.",
            "Estás mirando esta partida.",
            "Stai guardando questa partita.",
            "Vous regardez cette partie.",
        ],
    ),
    (
        "need_sign_in",
        [
            "You are watching this game without signing in. Sign in to play or to chat.",
            "Estás mirando esta partida sin haber entrado. Entra para jugar o para chatear.",
            "Stai guardando questa partita senza aver fatto l'accesso. Accedi per giocare o per chattare.",
            "Vous regardez cette partie sans être connecté. Connectez-vous pour jouer ou discuter.",
        ],
    ),
    (
        "link_refused",
        [
            "This link cannot be used",
            "Este enlace no se puede usar",
            "Questo link non può essere usato",
            "Ce lien ne peut pas être utilisé",
        ],
    ),
    (
        "archive",
        [
            "Finished games",
            "Partidas terminadas",
            "Partite concluse",
            "Parties terminées",
        ],
    ),
    (
        "archive_empty",
        [
            "No finished game yet.",
            "Aún no hay partidas terminadas.",
            "Ancora nessuna partita conclusa.",
            "Aucune partie terminée pour l'instant.",
        ],
    ),
    (
        "all_games",
        [
            "All games",
            "Todos los juegos",
            "Tutti i giochi",
            "Tous les jeux",
        ],
    ),
    (
        "all_players",
        [
            "All players",
            "Todos los jugadores",
            "Tutti i giocatori",
            "Tous les joueurs",
        ],
    ),
    ("show", ["Show", "Mostrar", "Mostra", "Afficher"]),
    (
        "newer",
        ["Newer", "Más recientes", "Più recenti", "Plus récentes"],
    ),
    (
        "older",
        ["Older", "Más antiguas", "Meno recenti", "Plus anciennes"],
    ),
    ("rules", ["Rules", "Reglas", "Regole", "Règles"]),
    (
        "lobby",
        [
            "Open tables",
            "Mesas abiertas",
            "Tavoli aperti",
            "Tables ouvertes",
        ],
    ),
    (
        "lobby_empty",
        [
            "No game is looking for players right now.",
            "Ahora no hay partidas buscando jugadores.",
            "Nessuna partita cerca giocatori in questo momento.",
            "Aucune partie ne cherche de joueurs pour le moment.",
        ],
    ),
    (
        "open_seats",
        [
            "open seats",
            "asientos libres",
            "posti liberi",
            "places libres",
        ],
    ),
    (
        "take_seat",
        ["Take a seat", "Sentarse", "Siediti", "Prendre une place"],
    ),
    ("decline", ["Decline", "Rechazar", "Rifiuta", "Décliner"]),
    (
        "cancel_game",
        [
            "Cancel this game",
            "Cancelar esta partida",
            "Annulla questa partita",
            "Annuler cette partie",
        ],
    ),
    (
        "link_spent",
        [
            "This sign-in link has been used or has expired: each link signs in once.",
            "Este enlace ya se usó o ha caducado: cada enlace sirve para entrar una vez.",
            "Questo link è già stato usato o è scaduto: ogni link serve per entrare una volta.",
            "Ce lien a déjà servi ou a expiré : chaque lien ne connecte qu'une fois.",
        ],
    ),
    (
        "sign_in_now",
        ["Sign in", "Entrar", "Accedi", "Se connecter"],
    ),
    (
        "link_expired",
        [
            "The link has expired.",
            "El enlace ha caducado.",
            "Il link è scaduto.",
            "Le lien a expiré.",
        ],
    ),
    (
        "link_withdrawn",
        [
            "This invitation was withdrawn or declined; the seat is no longer yours.",
            "Esta invitación se retiró o se rechazó; el asiento ya no es tuyo.",
            "Questo invito è stato ritirato o rifiutato; il posto non è più tuo.",
            "Cette invitation a été retirée ou refusée ; la place n'est plus la vôtre.",
        ],
    ),
    (
        "link_other_game",
        [
            "The link is for another game.",
            "El enlace es de otra partida.",
            "Il link è per un'altra partita.",
            "Le lien concerne une autre partie.",
        ],
    ),
    (
        "link_invalid",
        [
            "The link is not valid.",
            "El enlace no es válido.",
            "Il link non è valido.",
            "Le lien n'est pas valide.",
        ],
    ),
    (
        "link_open_first",
        [
            "This button works in the browser that opened the link. Open the link here, then press its button.",
            "Este botón funciona en el navegador que abrió el enlace. Abre el enlace aquí y pulsa su botón.",
            "Questo pulsante funziona nel browser che ha aperto il link. Apri il link qui, poi premi il suo pulsante.",
            "Ce bouton fonctionne dans le navigateur qui a ouvert le lien. Ouvrez le lien ici, puis appuyez sur son bouton.",
        ],
    ),
    (
        "link_open_again",
        [
            "Open the link",
            "Abrir el enlace",
            "Apri il link",
            "Ouvrir le lien",
        ],
    ),
    (
        "fresh_link",
        [
            "Mail me a fresh link",
            "Envíame un enlace nuevo",
            "Inviami un nuovo link",
            "M'envoyer un nouveau lien",
        ],
    ),
    (
        "email",
        [
            "Email address",
            "Correo electrónico",
            "Indirizzo email",
            "Adresse e-mail",
        ],
    ),
    (
        "link_sent",
        [
            "If the address has an account, a sign-in link is on its way. Open it on this device.",
            "Si la dirección tiene cuenta, va en camino un enlace para entrar. Ábrelo en este dispositivo.",
            "Se l'indirizzo ha un account, un link di accesso è in arrivo. Aprilo su questo dispositivo.",
            "Si l'adresse a un compte, un lien de connexion arrive. Ouvrez-le sur cet appareil.",
        ],
    ),
    (
        "send_link",
        [
            "Send me a sign-in link",
            "Envíame un enlace para entrar",
            "Inviami un link di accesso",
            "M'envoyer un lien de connexion",
        ],
    ),
    (
        "no_games",
        [
            "No games yet.",
            "Aún no hay partidas.",
            "Ancora nessuna partita.",
            "Pas encore de parties.",
        ],
    ),
    (
        "invited",
        ["Invitation", "Invitación", "Invito", "Invitation"],
    ),
    (
        "accept",
        [
            "Accept the invitation",
            "Aceptar la invitación",
            "Accetta l'invito",
            "Accepter l'invitation",
        ],
    ),
    ("open", ["Open", "Abrir", "Apri", "Ouvrir"]),
    (
        "status_waiting",
        [
            "waiting for players",
            "esperando jugadores",
            "in attesa di giocatori",
            "en attente de joueurs",
        ],
    ),
    (
        "status_active",
        ["in play", "en juego", "in corso", "en cours"],
    ),
    (
        "status_finished",
        ["finished", "terminada", "finita", "terminée"],
    ),
    (
        "status_aborted",
        ["aborted", "cancelada", "annullata", "annulée"],
    ),
    ("preset", ["Variant", "Variante", "Variante", "Variante"]),
    ("seat_count", ["Seats", "Asientos", "Posti", "Places"]),
    (
        "open_to_anyone",
        [
            "open to anyone",
            "abiertos a cualquiera",
            "aperti a tutti",
            "ouvertes à tous",
        ],
    ),
    (
        "as_invited",
        [
            "as the invitations make it",
            "según las invitaciones",
            "secondo gli inviti",
            "selon les invitations",
        ],
    ),
    (
        "invite",
        [
            "Invite (addresses or players' names, separated by commas)",
            "Invitar (direcciones o nombres de jugadores, separados por comas)",
            "Invita (indirizzi o nomi dei giocatori, separati da virgole)",
            "Inviter (adresses ou noms de joueurs, séparés par des virgules)",
        ],
    ),
    (
        "create",
        [
            "Create the game",
            "Crear la partida",
            "Crea la partita",
            "Créer la partie",
        ],
    ),
    ("options", ["Switches", "Opciones", "Opzioni", "Options"]),
    (
        "invalid_form",
        [
            "Please check the form",
            "Revisa el formulario",
            "Controlla il modulo",
            "Vérifiez le formulaire",
        ],
    ),
    ("seat", ["Seat", "Asiento", "Posto", "Place"]),
    (
        "final_turns",
        [
            "Final turns",
            "Turnos finales",
            "Turni finali",
            "Derniers tours",
        ],
    ),
    (
        "reshuffled",
        [
            "The deck has been reshuffled once.",
            "El mazo ya se rebarajó una vez.",
            "Il mazzo è già stato rimescolato una volta.",
            "La pioche a déjà été remélangée une fois.",
        ],
    ),
    ("none", ["none", "ninguna", "nessuna", "aucune"]),
    (
        "setup",
        ["Setup", "Preparación", "Preparazione", "Mise en place"],
    ),
    (
        "no_board",
        [
            "The board of this game is not drawn here yet: its state is in the API and the history below; your legal actions are the buttons.",
            "El tablero de este juego aún no se dibuja aquí: su estado está en la API y en el historial; tus acciones legales son los botones.",
            "Il tabellone di questo gioco non è ancora disegnato qui: il suo stato è nell'API e nella cronologia; le tue azioni legali sono i pulsanti.",
            "Le plateau de ce jeu n'est pas encore dessiné ici : son état est dans l'API et l'historique ; vos actions légales sont les boutons.",
        ],
    ),
    (
        "not_found",
        ["Not found", "No encontrado", "Non trovato", "Introuvable"],
    ),
    (
        "method_not_allowed",
        [
            "This page does not answer {method}; it answers {allow}.",
            "Esta página no responde a {method}; responde a {allow}.",
            "Questa pagina non risponde a {method}; risponde a {allow}.",
            "Cette page ne répond pas à {method} ; elle répond à {allow}.",
        ],
    ),
    (
        "address_not_found",
        [
            "There is nothing at this address: check the link you followed.",
            "No hay nada en esta dirección: comprueba el enlace que seguiste.",
            "Non c'è niente a questo indirizzo: controlla il link che hai seguito.",
            "Il n'y a rien à cette adresse : vérifiez le lien que vous avez suivi.",
        ],
    ),
    (
        "address_unreadable",
        [
            "This address could not be read: its parameters are not those of this page. Check the link you followed.",
            "No se pudo leer esta dirección: sus parámetros no son los de esta página. Comprueba el enlace que seguiste.",
            "Non è stato possibile leggere questo indirizzo: i suoi parametri non sono quelli di questa pagina. Controlla il link che hai seguito.",
            "Cette adresse n'a pas pu être lue : ses paramètres ne sont pas ceux de cette page. Vérifiez le lien que vous avez suivi.",
        ],
    ),
    (
        "form_unreadable",
        [
            "The form could not be read: its fields are not those of a form.",
            "No se pudo leer el formulario: sus campos no son los de un formulario.",
            "Non è stato possibile leggere il modulo: i suoi campi non sono quelli di un modulo.",
            "Le formulaire n'a pas pu être lu : ses champs ne sont pas ceux d'un formulaire.",
        ],
    ),
    (
        "form_media_type",
        [
            "The form could not be read: a form is sent as application/x-www-form-urlencoded.",
            "No se pudo leer el formulario: un formulario se envía como application/x-www-form-urlencoded.",
            "Non è stato possibile leggere il modulo: un modulo si invia come application/x-www-form-urlencoded.",
            "Le formulaire n'a pas pu être lu : un formulaire s'envoie en application/x-www-form-urlencoded.",
        ],
    ),
    (
        "form_timed_out",
        [
            "The form could not be read: it did not arrive in time. Send it again.",
            "No se pudo leer el formulario: no llegó a tiempo. Envíalo de nuevo.",
            "Non è stato possibile leggere il modulo: non è arrivato in tempo. Invialo di nuovo.",
            "Le formulaire n'a pas pu être lu : il n'est pas arrivé à temps. Envoyez-le de nouveau.",
        ],
    ),
    (
        "form_field_repeated",
        [
            "The form could not be read: it gives the field “{field}” more than once, and it takes one value. Nothing was changed; send the form again from its page.",
            "No se pudo leer el formulario: da el campo «{field}» más de una vez, y admite un solo valor. No se cambió nada; envía de nuevo el formulario desde su página.",
            "Non è stato possibile leggere il modulo: dà il campo «{field}» più di una volta, e ne ammette un solo valore. Non è cambiato nulla; invia di nuovo il modulo dalla sua pagina.",
            "Le formulaire n'a pas pu être lu : il donne le champ « {field} » plus d'une fois, et il n'en prend qu'une valeur. Rien n'a été modifié ; renvoyez le formulaire depuis sa page.",
        ],
    ),
    (
        "address_field_repeated",
        [
            "This address could not be read: it gives the parameter “{field}” more than once, and it takes one value. Nothing was changed; check the link you followed.",
            "No se pudo leer esta dirección: da el parámetro «{field}» más de una vez, y admite un solo valor. No se cambió nada; comprueba el enlace que seguiste.",
            "Non è stato possibile leggere questo indirizzo: dà il parametro «{field}» più di una volta, e ne ammette un solo valore. Non è cambiato nulla; controlla il link che hai seguito.",
            "Cette adresse n'a pas pu être lue : elle donne le paramètre « {field} » plus d'une fois, et il n'en prend qu'une valeur. Rien n'a été modifié ; vérifiez le lien que vous avez suivi.",
        ],
    ),
    (
        "address_field_unreadable",
        [
            "This address could not be read: its parameter “{field}” has a value this page cannot read. Nothing was changed; check the link you followed.",
            "No se pudo leer esta dirección: su parámetro «{field}» tiene un valor que esta página no puede leer. No se cambió nada; comprueba el enlace que seguiste.",
            "Non è stato possibile leggere questo indirizzo: il suo parametro «{field}» ha un valore che questa pagina non sa leggere. Non è cambiato nulla; controlla il link che hai seguito.",
            "Cette adresse n'a pas pu être lue : son paramètre « {field} » a une valeur que cette page ne sait pas lire. Rien n'a été modifié ; vérifiez le lien que vous avez suivi.",
        ],
    ),
    (
        "address_field_unaccepted",
        [
            "This address could not be read: its parameter “{field}” has a value this page does not take; it takes {accepted}. Nothing was changed; check the link you followed.",
            "No se pudo leer esta dirección: su parámetro «{field}» tiene un valor que esta página no admite; admite {accepted}. No se cambió nada; comprueba el enlace que seguiste.",
            "Non è stato possibile leggere questo indirizzo: il suo parametro «{field}» ha un valore che questa pagina non accetta; accetta {accepted}. Non è cambiato nulla; controlla il link che hai seguito.",
            "Cette adresse n'a pas pu être lue : son paramètre « {field} » a une valeur que cette page n'accepte pas ; elle accepte {accepted}. Rien n'a été modifié ; vérifiez le lien que vous avez suivi.",
        ],
    ),
    (
        "accepts_range",
        [
            "a whole number from {from} to {to}",
            "un número entero de {from} a {to}",
            "un numero intero da {from} a {to}",
            "un nombre entier de {from} à {to}",
        ],
    ),
    (
        "accepts_exactly",
        [
            "exactly {n}",
            "exactamente {n}",
            "esattamente {n}",
            "exactement {n}",
        ],
    ),
    (
        "accepts_one_of",
        [
            "one of {values}",
            "uno de estos valores: {values}",
            "uno di questi valori: {values}",
            "l'une de ces valeurs : {values}",
        ],
    ),
    (
        "accepts_player_id",
        [
            "a player's id, as the links of these pages give it",
            "el identificador de un jugador, tal como lo dan los enlaces de estas páginas",
            "l'identificativo di un giocatore, come lo danno i link di queste pagine",
            "l'identifiant d'un joueur, tel que le donnent les liens de ces pages",
        ],
    ),
    (
        "form_field_unaccepted",
        [
            "The field “{field}” has a value this form does not take; it takes {accepted}. Nothing was changed.",
            "El campo «{field}» tiene un valor que este formulario no admite; admite {accepted}. No se cambió nada.",
            "Il campo «{field}» ha un valore che questo modulo non accetta; accetta {accepted}. Non è cambiato nulla.",
            "Le champ « {field} » a une valeur que ce formulaire n'accepte pas ; il accepte {accepted}. Rien n'a été modifié.",
        ],
    ),
    (
        "accepts_list_of",
        [
            "a list separated by commas, each once, of {values}",
            "una lista separada por comas, cada uno una vez, de {values}",
            "un elenco separato da virgole, ciascuno una volta, di {values}",
            "une liste séparée par des virgules, chacun une fois, de {values}",
        ],
    ),
    (
        "accepts_offered_choice",
        [
            "one of the choices the form offers",
            "una de las opciones que ofrece el formulario",
            "una delle scelte offerte dal modulo",
            "l'un des choix que propose le formulaire",
        ],
    ),
    (
        "accepts_offered_clock",
        [
            "one of the clocks the form offers, no faster than this server allows (a competition's games need a clock)",
            "uno de los relojes que ofrece el formulario, no más rápido de lo que permite este servidor (las partidas de una competición necesitan reloj)",
            "uno degli orologi offerti dal modulo, non più veloce di quanto consente questo server (le partite di una competizione hanno bisogno di un orologio)",
            "l'une des pendules que propose le formulaire, pas plus rapide que ce que permet ce serveur (les parties d'une compétition ont besoin d'une pendule)",
        ],
    ),
    (
        "accepts_guests",
        [
            "email addresses or display names of other players than you, separated by commas, each player once",
            "direcciones de correo o nombres visibles de otros jugadores, no tú, separados por comas, cada jugador una vez",
            "indirizzi email o nomi visualizzati di altri giocatori, non tu, separati da virgole, ogni giocatore una volta",
            "des adresses e-mail ou des noms affichés d'autres joueurs que vous, séparés par des virgules, chaque joueur une fois",
        ],
    ),
    (
        "accepts_addresses",
        [
            "email addresses, separated by commas or lines, each once",
            "direcciones de correo, separadas por comas o líneas, cada una una vez",
            "indirizzi email, separati da virgole o righe, ciascuno una volta",
            "des adresses e-mail, séparées par des virgules ou des lignes, chacune une fois",
        ],
    ),
    (
        "accepts_known_names",
        [
            "email addresses, or display names each of which belongs to exactly one player here (otherwise invite them by address)",
            "direcciones de correo, o nombres visibles que pertenezcan cada uno a un solo jugador de aquí (si no, invítalos por dirección)",
            "indirizzi email, o nomi visualizzati che appartengano ciascuno a un solo giocatore di qui (altrimenti invitali per indirizzo)",
            "des adresses e-mail, ou des noms affichés appartenant chacun à un seul joueur d'ici (sinon, invitez-les par adresse)",
        ],
    ),
    (
        "accepts_seats_for_guests",
        [
            "enough seats for you and every invited player",
            "asientos suficientes para ti y cada jugador invitado",
            "posti sufficienti per te e per ogni giocatore invitato",
            "assez de places pour vous et chaque joueur invité",
        ],
    ),
    (
        "accepts_open_agreeing",
        [
            "the seats left once you and the invited players are seated, or nothing",
            "los asientos que quedan una vez sentados tú y los invitados, o nada",
            "i posti che restano una volta seduti tu e gli invitati, o niente",
            "les places qui restent une fois assis vous et les invités, ou rien",
        ],
    ),
    (
        "accepts_places",
        [
            "the place of each seat, as whole numbers separated by commas (1,2)",
            "el puesto de cada asiento, como números enteros separados por comas (1,2)",
            "la posizione di ogni posto, come numeri interi separati da virgole (1,2)",
            "la place de chaque siège, en nombres entiers séparés par des virgules (1,2)",
        ],
    ),
    (
        "accepts_table_sizes",
        [
            "table sizes as whole numbers separated by commas (3,4)",
            "tamaños de mesa como números enteros separados por comas (3,4)",
            "dimensioni dei tavoli come numeri interi separati da virgole (3,4)",
            "des tailles de table en nombres entiers séparés par des virgules (3,4)",
        ],
    ),
    (
        "accepts_table_sizes_between",
        [
            "table sizes from {from} to {to} players, as whole numbers separated by commas",
            "tamaños de mesa de {from} a {to} jugadores, como números enteros separados por comas",
            "dimensioni dei tavoli da {from} a {to} giocatori, come numeri interi separati da virgole",
            "des tailles de table de {from} à {to} joueurs, en nombres entiers séparés par des virgules",
        ],
    ),
    (
        "accepts_table_size_exactly",
        [
            "tables of exactly {n} players (the size {n})",
            "mesas de exactamente {n} jugadores (el tamaño {n})",
            "tavoli di esattamente {n} giocatori (la dimensione {n})",
            "des tables d'exactement {n} joueurs (la taille {n})",
        ],
    ),
    (
        "accepts_format_for_game",
        [
            "a format the chosen game is played in: tables for a game of three players or more, the others for a game of two",
            "un formato en el que se juegue el juego elegido: mesas para un juego de tres jugadores o más, los demás para un juego de dos",
            "un formato in cui si giochi il gioco scelto: tavoli per un gioco da tre giocatori o più, gli altri per un gioco a due",
            "un format dans lequel se joue le jeu choisi : tables pour un jeu à trois joueurs ou plus, les autres pour un jeu à deux",
        ],
    ),
    (
        "accepts_fitting_switch",
        [
            "a choice that goes with the game's other switches and with its number of players (its rule is named next to it)",
            "una opción compatible con las demás opciones de la partida y con su número de jugadores (su regla figura a su lado)",
            "una scelta compatibile con le altre opzioni della partita e con il suo numero di giocatori (la sua regola è indicata accanto)",
            "un choix compatible avec les autres options de la partie et avec son nombre de joueurs (sa règle est indiquée à côté)",
        ],
    ),
    (
        "form_not_taken",
        [
            "This form was not accepted as it stands. Nothing was changed; check its fields and send it again.",
            "No se aceptó el formulario tal como está. No se cambió nada; revisa sus campos y envíalo de nuevo.",
            "Il modulo non è stato accettato così com'è. Non è cambiato nulla; controlla i campi e invialo di nuovo.",
            "Le formulaire n'a pas été accepté tel quel. Rien n'a été modifié ; vérifiez ses champs et renvoyez-le.",
        ],
    ),
    (
        "accepts_one_line",
        [
            "one line of 1 to {n} characters",
            "una línea de 1 a {n} caracteres",
            "una riga da 1 a {n} caratteri",
            "une ligne de 1 à {n} caractères",
        ],
    ),
    (
        "accepts_whole_number",
        [
            "a whole number",
            "un número entero",
            "un numero intero",
            "un nombre entier",
        ],
    ),
    (
        "accepts_reminders",
        [
            "numbers of hours above 0 and up to 720, separated by commas, at most {n} of them",
            "números de horas mayores que 0 y hasta 720, separados por comas, como mucho {n}",
            "numeri di ore maggiori di 0 e fino a 720, separati da virgole, al massimo {n}",
            "des nombres d'heures supérieurs à 0 et jusqu'à 720, séparés par des virgules, {n} au plus",
        ],
    ),
    (
        "accepts_time_zone",
        [
            "an IANA time zone name such as Europe/Madrid or UTC",
            "el nombre de una zona horaria IANA, como Europe/Madrid o UTC",
            "il nome di un fuso orario IANA, come Europe/Madrid o UTC",
            "le nom d'un fuseau horaire IANA, comme Europe/Madrid ou UTC",
        ],
    ),
    (
        "no_such_form",
        [
            "This game's page has no such form: choose from the forms it shows now. Nothing was changed.",
            "La página de esta partida no tiene ese formulario: elige entre los que muestra ahora. No se cambió nada.",
            "La pagina di questa partita non ha quel modulo: scegli tra quelli che mostra ora. Non è cambiato nulla.",
            "La page de cette partie n'a pas ce formulaire : choisissez parmi ceux qu'elle montre maintenant. Rien n'a été modifié.",
        ],
    ),
    (
        "choose_listed",
        [
            "Choose one of the listed choices. Nothing was changed.",
            "Elige una de las opciones de la lista. No se cambió nada.",
            "Scegli una delle scelte elencate. Non è cambiato nulla.",
            "Choisissez l'un des choix de la liste. Rien n'a été modifié.",
        ],
    ),
    (
        "rate_limited",
        [
            "Too many requests: try again in {s} seconds. Nothing was changed.",
            "Demasiadas solicitudes: inténtalo de nuevo dentro de {s} segundos. No se cambió nada.",
            "Troppe richieste: riprova tra {s} secondi. Non è cambiato nulla.",
            "Trop de demandes : réessayez dans {s} secondes. Rien n'a été modifié.",
        ],
    ),
    (
        "form_too_large",
        [
            "The form could not be read: it is larger than any form of these pages.",
            "No se pudo leer el formulario: es más grande que cualquier formulario de estas páginas.",
            "Non è stato possibile leggere il modulo: è più grande di qualsiasi modulo di queste pagine.",
            "Le formulaire n'a pas pu être lu : il est plus grand que tout formulaire de ces pages.",
        ],
    ),
    (
        "error",
        [
            "Something went wrong",
            "Algo salió mal",
            "Qualcosa è andato storto",
            "Une erreur s'est produite",
        ],
    ),
    (
        "signed_in_as",
        [
            "Signed in as",
            "Sesión de",
            "Accesso come",
            "Connecté en tant que",
        ],
    ),
    ("dice", ["Dice", "Dados", "Dadi", "Dés"]),
    (
        "legal_builds",
        [
            "Builds you can afford",
            "Construcciones que puedes pagar",
            "Costruzioni che puoi pagare",
            "Constructions à votre portée",
        ],
    ),
    (
        "mail_about_turns",
        [
            "Mail about my turns",
            "Correo sobre mis turnos",
            "Email sui miei turni",
            "E-mails sur mes tours",
        ],
    ),
    (
        "mode_instant",
        [
            "A mail whenever a game waits for me",
            "Un correo cada vez que una partida me espera",
            "Un'email ogni volta che una partita mi aspetta",
            "Un e-mail chaque fois qu'une partie m'attend",
        ],
    ),
    (
        "mode_daily_digest",
        [
            "One mail a day listing the games waiting for me",
            "Un correo al día con las partidas que me esperan",
            "Un'email al giorno con le partite che mi aspettano",
            "Un e-mail par jour avec les parties qui m'attendent",
        ],
    ),
    (
        "mode_off",
        [
            "No turn mails (invitations and sign-in links still come)",
            "Ningún correo de turno (invitaciones y enlaces de acceso siguen llegando)",
            "Nessuna email di turno (inviti e link di accesso arrivano comunque)",
            "Aucun e-mail de tour (invitations et liens de connexion arrivent toujours)",
        ],
    ),
    ("save", ["Save", "Guardar", "Salva", "Enregistrer"]),
    ("saved", ["Saved.", "Guardado.", "Salvato.", "Enregistré."]),
    (
        "new_player",
        [
            "New to Herald?",
            "¿Nuevo en Herald?",
            "Nuovo su Herald?",
            "Nouveau sur Herald ?",
        ],
    ),
    (
        "sign_up",
        ["Sign up", "Registrarse", "Registrati", "S'inscrire"],
    ),
    (
        "sign_up_intro",
        [
            "No password needed: give your address, open the link we mail you, and choose the name other players will see.",
            "No hace falta contraseña: escribe tu dirección, abre el enlace que te enviamos y elige el nombre que verán los demás.",
            "Nessuna password: scrivi il tuo indirizzo, apri il link che ti mandiamo e scegli il nome che vedranno gli altri.",
            "Pas de mot de passe : donnez votre adresse, ouvrez le lien que nous vous envoyons et choisissez le nom que verront les autres.",
        ],
    ),
    (
        "sign_up_sent",
        [
            "A link is on its way to that address. Open it to finish (it works for a day).",
            "Hemos enviado un enlace a esa dirección. Ábrelo para terminar (funciona un día).",
            "Abbiamo inviato un link a quell'indirizzo. Aprilo per finire (funziona per un giorno).",
            "Un lien part vers cette adresse. Ouvrez-le pour terminer (il fonctionne un jour).",
        ],
    ),
    (
        "sign_up_for",
        [
            "Your account's address:",
            "La dirección de tu cuenta:",
            "L'indirizzo del tuo account:",
            "L'adresse de votre compte :",
        ],
    ),
    (
        "create_account",
        [
            "Create my account",
            "Crear mi cuenta",
            "Crea il mio account",
            "Créer mon compte",
        ],
    ),
    (
        "sign_up_spent",
        [
            "This sign-up link was already used or has expired.",
            "Este enlace de registro ya se usó o ha caducado.",
            "Questo link di registrazione è già stato usato o è scaduto.",
            "Ce lien d'inscription a déjà servi ou a expiré.",
        ],
    ),
    (
        "sign_up_again",
        [
            "Ask for a new sign-up link",
            "Pedir un nuevo enlace de registro",
            "Chiedi un nuovo link di registrazione",
            "Demander un nouveau lien d'inscription",
        ],
    ),
    (
        "new_here",
        [
            "New here? Sign up",
            "¿Eres nuevo? Regístrate",
            "Sei nuovo? Registrati",
            "Nouveau ? Inscrivez-vous",
        ],
    ),
    (
        "your_name",
        [
            "Your name (shown to the other players)",
            "Tu nombre (lo ven los demás)",
            "Il tuo nome (visibile agli altri)",
            "Votre nom (visible des autres joueurs)",
        ],
    ),
    (
        "invited_address",
        [
            "The address the invitation was sent to",
            "La dirección a la que llegó la invitación",
            "L'indirizzo a cui è arrivato l'invito",
            "L'adresse qui a reçu l'invitation",
        ],
    ),
    (
        "have_account",
        [
            "Already have an account?",
            "¿Ya tienes cuenta?",
            "Hai già un account?",
            "Vous avez déjà un compte ?",
        ],
    ),
    (
        "address_taken",
        [
            "This address already has an account: sign in below.",
            "Esta dirección ya tiene cuenta: entra abajo.",
            "Questo indirizzo ha già un account: accedi qui sotto.",
            "Cette adresse a déjà un compte : connectez-vous ci-dessous.",
        ],
    ),
    (
        "drew_nothing",
        [
            "the draw pile is empty: nothing drawn",
            "el mazo está vacío: no roba",
            "il mazzo è vuoto: nessuna carta pescata",
            "la pioche est vide : rien n'est pioché",
        ],
    ),
    // Ratings (src/web/players.rs).
    ("ratings", ["Ratings", "Puntuaciones", "Punteggi", "Cotes"]),
    ("rating", ["Rating", "Puntuación", "Punteggio", "Cote"]),
    (
        "deviation",
        ["Deviation", "Desviación", "Deviazione", "Écart"],
    ),
    (
        "games_rated",
        [
            "Rated games",
            "Partidas puntuables",
            "Partite valutate",
            "Parties classées",
        ],
    ),
    (
        "provisional",
        ["provisional", "provisional", "provvisorio", "provisoire"],
    ),
    ("game", ["Game", "Juego", "Gioco", "Jeu"]),
    ("player", ["Player", "Jugador", "Giocatore", "Joueur"]),
    ("rank", ["Rank", "Puesto", "Posizione", "Rang"]),
    (
        "leaderboard",
        ["Leaderboard", "Clasificación", "Classifica", "Classement"],
    ),
    (
        "recent_results",
        [
            "Recent results",
            "Resultados recientes",
            "Risultati recenti",
            "Résultats récents",
        ],
    ),
    (
        "no_ratings",
        [
            "No rated games yet.",
            "Aún no hay partidas puntuables.",
            "Ancora nessuna partita valutata.",
            "Pas encore de partie classée.",
        ],
    ),
    (
        "no_leaders",
        [
            "Nobody has an established rating yet.",
            "Nadie tiene aún una puntuación consolidada.",
            "Nessuno ha ancora un punteggio consolidato.",
            "Personne n'a encore de cote établie.",
        ],
    ),
    (
        "place_of",
        [
            "place {p} of {n}",
            "puesto {p} de {n}",
            "posto {p} su {n}",
            "place {p} sur {n}",
        ],
    ),
    // How a game in a player's results was decided, said of the game (the same words for its
    // winner and its loser).
    (
        "on_time",
        [
            "decided on time",
            "decidida por tiempo",
            "decisa per tempo",
            "décidée au temps",
        ],
    ),
    (
        "by_resignation",
        [
            "decided by resignation",
            "decidida por abandono",
            "decisa per abbandono",
            "décidée par abandon",
        ],
    ),
    ("next_page", ["Next", "Siguiente", "Successivi", "Suivants"]),
    (
        "previous_page",
        ["Previous", "Anterior", "Precedenti", "Précédents"],
    ),
    (
        "rated_game",
        [
            "Rated game (counts for the players' ratings)",
            "Partida puntuable (cuenta para la puntuación de los jugadores)",
            "Partita valutata (conta per il punteggio dei giocatori)",
            "Partie classée (compte pour la cote des joueurs)",
        ],
    ),
    (
        "spectator_chat_game",
        [
            "Spectators may chat too",
            "Los espectadores también pueden chatear",
            "Anche gli spettatori possono chattare",
            "Les spectateurs peuvent aussi discuter",
        ],
    ),
    (
        "competitions",
        [
            "Competitions",
            "Competiciones",
            "Competizioni",
            "Compétitions",
        ],
    ),
    (
        "new_competition",
        [
            "New competition",
            "Nueva competición",
            "Nuova competizione",
            "Nouvelle compétition",
        ],
    ),
    (
        "comp_registering",
        [
            "open for entries",
            "inscripción abierta",
            "iscrizioni aperte",
            "inscriptions ouvertes",
        ],
    ),
    (
        "comp_running",
        ["running", "en curso", "in corso", "en cours"],
    ),
    (
        "comp_paused",
        ["paused", "en pausa", "in pausa", "en pause"],
    ),
    (
        "comp_finished",
        ["finished", "terminada", "conclusa", "terminée"],
    ),
    (
        "comp_finalised",
        [
            "standings final",
            "clasificación definitiva",
            "classifica definitiva",
            "classement définitif",
        ],
    ),
    (
        "comp_none",
        [
            "No competitions yet.",
            "Aún no hay competiciones.",
            "Nessuna competizione per ora.",
            "Aucune compétition pour l'instant.",
        ],
    ),
    (
        "comp_entrants",
        ["entrants", "inscritos", "iscritti", "inscrits"],
    ),
    (
        "comp_organiser",
        [
            "organised by",
            "organizada por",
            "organizzata da",
            "organisée par",
        ],
    ),
    (
        "comp_enter",
        ["Enter", "Inscribirme", "Iscrivimi", "M'inscrire"],
    ),
    (
        "comp_withdraw",
        ["Withdraw", "Retirarme", "Ritirati", "Me retirer"],
    ),
    (
        "comp_start",
        [
            "Close entry and start",
            "Cerrar la inscripción y empezar",
            "Chiudi le iscrizioni e inizia",
            "Clore les inscriptions et commencer",
        ],
    ),
    (
        "comp_standings",
        ["Standings", "Clasificación", "Classifica", "Classement"],
    ),
    ("comp_player", ["Player", "Jugador", "Giocatore", "Joueur"]),
    ("comp_points", ["Points", "Puntos", "Punti", "Points"]),
    ("comp_played", ["Played", "Jugadas", "Giocate", "Jouées"]),
    ("comp_round", ["Round", "Ronda", "Turno", "Ronde"]),
    (
        "comp_result_by_director",
        [
            "Result set by the competition's director",
            "Resultado fijado por el director de la competición",
            "Risultato stabilito dal direttore della competizione",
            "Résultat fixé par l'arbitre de la compétition",
        ],
    ),
    (
        "comp_forfeit",
        ["forfeit", "incomparecencia", "forfait", "forfait"],
    ),
    (
        "comp_playing",
        ["being played", "en juego", "in corso", "en cours"],
    ),
    ("comp_bye", ["bye", "descanso", "riposo", "exempt"]),
    (
        "comp_server",
        ["the server", "el servidor", "il server", "le serveur"],
    ),
    (
        "comp_working_address",
        [
            "Open entry only for players whose mail address is known to work",
            "Inscripción abierta solo a jugadores cuyo correo se sabe que funciona",
            "Iscrizione aperta solo ai giocatori con un indirizzo di posta che funziona",
            "Inscription ouverte aux seuls joueurs dont l'adresse de courrier fonctionne",
        ],
    ),
    (
        "comp_audit",
        [
            "Director's log",
            "Registro del director",
            "Registro del direttore",
            "Journal de l'arbitre",
        ],
    ),
    (
        "comp_director",
        [
            "Direct the competition",
            "Dirigir la competición",
            "Dirigi la competizione",
            "Diriger la compétition",
        ],
    ),
    ("comp_action", ["Action", "Acción", "Azione", "Action"]),
    ("comp_game", ["Game", "Partida", "Partita", "Partie"]),
    (
        "comp_places",
        [
            "Places by seat",
            "Puestos por asiento",
            "Piazzamenti per posto",
            "Places par siège",
        ],
    ),
    (
        "comp_seconds",
        ["Seconds", "Segundos", "Secondi", "Secondes"],
    ),
    (
        "comp_reason",
        [
            "Reason (for the log)",
            "Motivo (para el registro)",
            "Motivo (per il registro)",
            "Motif (pour le journal)",
        ],
    ),
    ("comp_apply", ["Apply", "Aplicar", "Applica", "Appliquer"]),
    ("comp_name", ["Name", "Nombre", "Nome", "Nom"]),
    ("comp_format", ["Format", "Formato", "Formato", "Format"]),
    (
        "comp_rounds",
        [
            "Rounds (Swiss, tables)",
            "Rondas (suizo, mesas)",
            "Turni (svizzero, tavoli)",
            "Rondes (suisse, tables)",
        ],
    ),
    (
        "comp_table_sizes",
        [
            "Table sizes (tables)",
            "Tamaños de mesa (mesas)",
            "Dimensioni dei tavoli (tavoli)",
            "Tailles des tables (tables)",
        ],
    ),
    (
        "comp_division_size",
        [
            "Division size (league)",
            "Tamaño de división (liga)",
            "Dimensione della divisione (lega)",
            "Taille de division (ligue)",
        ],
    ),
    (
        "comp_entry",
        ["Entry", "Inscripción", "Iscrizione", "Inscription"],
    ),
    (
        "comp_by_invitation",
        [
            "By invitation",
            "Por invitación",
            "Su invito",
            "Sur invitation",
        ],
    ),
    (
        "comp_open",
        [
            "Open to all",
            "Abierta a todos",
            "Aperta a tutti",
            "Ouverte à tous",
        ],
    ),
    (
        "comp_invite",
        [
            "Invite (addresses)",
            "Invitar (direcciones)",
            "Invita (indirizzi)",
            "Inviter (adresses)",
        ],
    ),
    (
        "comp_tie_breaks",
        [
            "Tie-breaks, in order",
            "Desempates, en orden",
            "Spareggi, in ordine",
            "Départages, dans l'ordre",
        ],
    ),
    // Formats, entrants' statuses and the director's actions (src/web/competitions.rs): the
    // API keeps its names.
    (
        "comp_format_swiss",
        ["Swiss", "Suizo", "Svizzero", "Suisse"],
    ),
    (
        "comp_format_round_robin",
        [
            "Round robin",
            "Todos contra todos",
            "Girone all'italiana",
            "Toutes rondes",
        ],
    ),
    (
        "comp_format_round_robin_double",
        [
            "Double round robin",
            "Todos contra todos a doble vuelta",
            "Girone all'italiana con andata e ritorno",
            "Toutes rondes aller-retour",
        ],
    ),
    (
        "comp_format_knockout",
        [
            "Knockout",
            "Eliminatoria",
            "Eliminazione diretta",
            "Élimination directe",
        ],
    ),
    (
        "comp_format_knockout_2",
        [
            "Knockout (2-game matches)",
            "Eliminatoria (duelos a 2 partidas)",
            "Eliminazione diretta (sfide su 2 partite)",
            "Élimination directe (matchs en 2 parties)",
        ],
    ),
    ("comp_format_league", ["League", "Liga", "Lega", "Ligue"]),
    (
        "comp_format_tables",
        ["Tables", "Mesas", "Tavoli", "Tables"],
    ),
    (
        "comp_tb_sonneborn_berger",
        [
            "Sonneborn-Berger",
            "Sonneborn-Berger",
            "Sonneborn-Berger",
            "Sonneborn-Berger",
        ],
    ),
    (
        "comp_tb_buchholz",
        ["Buchholz", "Buchholz", "Buchholz", "Buchholz"],
    ),
    (
        "comp_tb_buchholz_cut1",
        [
            "Buchholz cut 1",
            "Buchholz corte 1",
            "Buchholz taglio 1",
            "Buchholz tronqué 1",
        ],
    ),
    (
        "comp_tb_median_buchholz",
        [
            "Median Buchholz",
            "Buchholz mediano",
            "Buchholz mediano",
            "Buchholz médian",
        ],
    ),
    (
        "comp_tb_head_to_head",
        [
            "Head-to-head",
            "Enfrentamiento directo",
            "Scontro diretto",
            "Confrontation directe",
        ],
    ),
    (
        "comp_tb_wins",
        ["Wins", "Victorias", "Vittorie", "Victoires"],
    ),
    (
        "comp_tb_game_score",
        [
            "Game score",
            "Puntos de partida",
            "Punti di partita",
            "Points de partie",
        ],
    ),
    (
        "comp_tb_rating",
        ["Rating", "Puntuación", "Punteggio", "Cote"],
    ),
    (
        "comp_entrant_entered",
        ["entered", "inscrito", "iscritto", "inscrit"],
    ),
    (
        "comp_entrant_withdrawn",
        ["withdrawn", "retirado", "ritirato", "retiré"],
    ),
    (
        "comp_entrant_disqualified",
        [
            "disqualified",
            "descalificado",
            "squalificato",
            "disqualifié",
        ],
    ),
    (
        "comp_action_set_result",
        [
            "Set a result",
            "Fijar un resultado",
            "Stabilire un risultato",
            "Fixer un résultat",
        ],
    ),
    (
        "comp_action_extend_deadline",
        [
            "Extend a deadline",
            "Ampliar un plazo",
            "Prorogare una scadenza",
            "Prolonger une échéance",
        ],
    ),
    (
        "comp_action_pause",
        ["Pause", "Pausar", "Mettere in pausa", "Mettre en pause"],
    ),
    (
        "comp_action_resume",
        ["Resume", "Reanudar", "Riprendere", "Reprendre"],
    ),
    (
        "comp_action_replace",
        [
            "Replace a player",
            "Sustituir a un jugador",
            "Sostituire un giocatore",
            "Remplacer un joueur",
        ],
    ),
    (
        "comp_action_withdraw",
        [
            "Withdraw a player",
            "Retirar a un jugador",
            "Ritirare un giocatore",
            "Retirer un joueur",
        ],
    ),
    (
        "comp_action_disqualify",
        [
            "Disqualify a player",
            "Descalificar a un jugador",
            "Squalificare un giocatore",
            "Disqualifier un joueur",
        ],
    ),
    (
        "comp_action_finalise",
        [
            "Finalise the standings",
            "Cerrar la clasificación",
            "Chiudere la classifica",
            "Clore le classement",
        ],
    ),
    (
        "comp_action_ended_early",
        [
            "Ended early",
            "Terminada antes de tiempo",
            "Conclusa in anticipo",
            "Terminée avant son terme",
        ],
    ),
    (
        "comp_refused_not_organiser",
        [
            "Only the competition's organiser may do this. Nothing was changed.",
            "Solo el organizador de la competición puede hacer esto. No se cambió nada.",
            "Solo l'organizzatore della competizione può farlo. Non è cambiato nulla.",
            "Seul l'organisateur de la compétition peut faire cela. Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_entry_closed",
        [
            "Entry is closed: the competition has started. Nothing was changed.",
            "La inscripción está cerrada: la competición ya empezó. No se cambió nada.",
            "Le iscrizioni sono chiuse: la competizione è iniziata. Non è cambiato nulla.",
            "Les inscriptions sont closes : la compétition a commencé. Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_already_entered",
        [
            "You are already entered in this competition. Nothing was changed.",
            "Ya estás inscrito en esta competición. No se cambió nada.",
            "Sei già iscritto a questa competizione. Non è cambiato nulla.",
            "Vous êtes déjà inscrit à cette compétition. Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_not_invited",
        [
            "This competition is by invitation, and your address is not among those invited. Nothing was changed.",
            "Esta competición es por invitación, y tu dirección no está entre las invitadas. No se cambió nada.",
            "Questa competizione è su invito, e il tuo indirizzo non è tra quelli invitati. Non è cambiato nulla.",
            "Cette compétition est sur invitation, et votre adresse ne fait pas partie des adresses invitées. Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_address_unproven",
        [
            "This competition takes only players whose mail address is known to work: sign in once with a link mailed to you, then enter. Nothing was changed.",
            "Esta competición solo admite jugadores cuyo correo se sabe que funciona: entra una vez con un enlace enviado a tu correo y luego inscríbete. No se cambió nada.",
            "Questa competizione accetta solo giocatori con un indirizzo di posta che funziona: accedi una volta con un link inviato alla tua posta, poi iscriviti. Non è cambiato nulla.",
            "Cette compétition n'accepte que les joueurs dont l'adresse de courrier fonctionne : connectez-vous une fois avec un lien reçu par courrier, puis inscrivez-vous. Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_rating",
        [
            "This competition needs a rating of at least {min} in its game; yours is {rating}. Nothing was changed.",
            "Esta competición exige una puntuación de al menos {min} en su juego; la tuya es {rating}. No se cambió nada.",
            "Questa competizione richiede un punteggio di almeno {min} nel suo gioco; il tuo è {rating}. Non è cambiato nulla.",
            "Cette compétition demande une cote d'au moins {min} dans son jeu ; la vôtre est de {rating}. Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_unrated",
        [
            "This competition needs a rating of at least {min} in its game, and you have none in it yet: rated games of it give you one. Nothing was changed.",
            "Esta competición exige una puntuación de al menos {min} en su juego, y aún no tienes ninguna en él: las partidas puntuables te la dan. No se cambió nada.",
            "Questa competizione richiede un punteggio di almeno {min} nel suo gioco, e non ne hai ancora uno: te lo danno le partite valutate. Non è cambiato nulla.",
            "Cette compétition demande une cote d'au moins {min} dans son jeu, et vous n'en avez pas encore : les parties classées vous en donnent une. Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_full",
        [
            "The competition is full: it takes {n} entrants. Nothing was changed.",
            "La competición está completa: admite {n} inscritos. No se cambió nada.",
            "La competizione è al completo: accetta {n} iscritti. Non è cambiato nulla.",
            "La compétition est complète : elle accepte {n} inscrits. Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_you_left",
        [
            "You are no longer in this competition: you withdrew or were disqualified. Nothing was changed.",
            "Ya no estás en esta competición: te retiraste o fuiste descalificado. No se cambió nada.",
            "Non sei più in questa competizione: ti sei ritirato o sei stato squalificato. Non è cambiato nulla.",
            "Vous n'êtes plus dans cette compétition : vous vous êtes retiré ou avez été disqualifié. Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_not_entered",
        [
            "You are not entered in this competition. Nothing was changed.",
            "No estás inscrito en esta competición. No se cambió nada.",
            "Non sei iscritto a questa competizione. Non è cambiato nulla.",
            "Vous n'êtes pas inscrit à cette compétition. Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_player_left",
        [
            "That player is no longer in the competition: they withdrew or were disqualified. Nothing was changed.",
            "Ese jugador ya no está en la competición: se retiró o fue descalificado. No se cambió nada.",
            "Quel giocatore non è più nella competizione: si è ritirato o è stato squalificato. Non è cambiato nulla.",
            "Ce joueur n'est plus dans la compétition : il s'est retiré ou a été disqualifié. Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_finished",
        [
            "The competition has finished. Nothing was changed.",
            "La competición ha terminado. No se cambió nada.",
            "La competizione è conclusa. Non è cambiato nulla.",
            "La compétition est terminée. Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_not_startable",
        [
            "Only a competition open for entries can start (or a league go on to its next season once one has finished). Nothing was changed.",
            "Solo puede empezar una competición con la inscripción abierta (o una liga pasar a su siguiente temporada cuando una ha terminado). No se cambió nada.",
            "Può iniziare solo una competizione con le iscrizioni aperte (o una lega passare alla stagione successiva quando una è conclusa). Non è cambiato nulla.",
            "Seule une compétition aux inscriptions ouvertes peut commencer (ou une ligue passer à sa saison suivante une fois la précédente terminée). Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_too_few",
        [
            "The competition cannot start yet: its format needs at least {n} entrants. Nothing was changed.",
            "La competición aún no puede empezar: su formato necesita al menos {n} inscritos. No se cambió nada.",
            "La competizione non può ancora iniziare: il suo formato richiede almeno {n} iscritti. Non è cambiato nulla.",
            "La compétition ne peut pas encore commencer : son format demande au moins {n} inscrits. Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_swiss_rounds",
        [
            "The competition cannot start yet: a Swiss of {rounds} rounds needs at least {n} entrants, so that nobody meets the same opponent twice or has two byes. Nothing was changed.",
            "La competición aún no puede empezar: un suizo de {rounds} rondas necesita al menos {n} inscritos, para que nadie se enfrente dos veces al mismo rival ni descanse dos veces. No se cambió nada.",
            "La competizione non può ancora iniziare: uno svizzero di {rounds} turni richiede almeno {n} iscritti, perché nessuno incontri due volte lo stesso avversario o riposi due volte. Non è cambiato nulla.",
            "La compétition ne peut pas encore commencer : un suisse de {rounds} rondes demande au moins {n} inscrits, pour que personne ne rencontre deux fois le même adversaire ni ne soit exempt deux fois. Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_tables_split",
        [
            "The competition cannot start: its {n} entrants cannot be split into tables of the chosen sizes. Nothing was changed.",
            "La competición no puede empezar: sus {n} inscritos no se pueden repartir en mesas de los tamaños elegidos. No se cambió nada.",
            "La competizione non può iniziare: i suoi {n} iscritti non si possono dividere in tavoli delle dimensioni scelte. Non è cambiato nulla.",
            "La compétition ne peut pas commencer : ses {n} inscrits ne peuvent pas être répartis en tables des tailles choisies. Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_format",
        [
            "The competition cannot start with its format as it stands. Nothing was changed.",
            "La competición no puede empezar con su formato tal como está. No se cambió nada.",
            "La competizione non può iniziare con il suo formato così com'è. Non è cambiato nulla.",
            "La compétition ne peut pas commencer avec son format tel qu'il est. Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_season_too_few",
        [
            "Another season cannot start: fewer than 2 entrants are left. Nothing was changed.",
            "No puede empezar otra temporada: quedan menos de 2 inscritos. No se cambió nada.",
            "Non può iniziare un'altra stagione: restano meno di 2 iscritti. Non è cambiato nulla.",
            "Une autre saison ne peut pas commencer : il reste moins de 2 inscrits. Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_finalised",
        [
            "The competition is finalised: its standings are frozen. Nothing was changed.",
            "La competición está cerrada: su clasificación es definitiva. No se cambió nada.",
            "La competizione è chiusa: la sua classifica è definitiva. Non è cambiato nulla.",
            "La compétition est close : son classement est définitif. Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_not_started",
        [
            "The competition has not started yet. Nothing was changed.",
            "La competición aún no ha empezado. No se cambió nada.",
            "La competizione non è ancora iniziata. Non è cambiato nulla.",
            "La compétition n'a pas encore commencé. Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_not_running",
        [
            "Only a running competition can be paused. Nothing was changed.",
            "Solo se puede pausar una competición en curso. No se cambió nada.",
            "Si può mettere in pausa solo una competizione in corso. Non è cambiato nulla.",
            "Seule une compétition en cours peut être mise en pause. Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_not_paused",
        [
            "The competition is not paused. Nothing was changed.",
            "La competición no está en pausa. No se cambió nada.",
            "La competizione non è in pausa. Non è cambiato nulla.",
            "La compétition n'est pas en pause. Rien n'a été modifié.",
        ],
    ),
    (
        "comp_refused_no_deadline",
        [
            "Nobody in that game has a deadline to extend. Nothing was changed.",
            "Nadie en esa partida tiene un plazo que ampliar. No se cambió nada.",
            "Nessuno in quella partita ha una scadenza da prorogare. Non è cambiato nulla.",
            "Personne dans cette partie n'a d'échéance à prolonger. Rien n'a été modifié.",
        ],
    ),
    (
        "accepts_ranking",
        [
            "one place per seat ({n} here), separated by commas: 1 for first, equal places shared (1,2,2,4)",
            "un puesto por asiento ({n} aquí), separados por comas: 1 para el primero, los empatados comparten puesto (1,2,2,4)",
            "una posizione per posto ({n} qui), separate da virgole: 1 per il primo, chi è a pari merito condivide la posizione (1,2,2,4)",
            "une place par siège ({n} ici), séparées par des virgules : 1 pour le premier, les ex aequo partageant leur place (1,2,2,4)",
        ],
    ),
    (
        "game_refused_seated",
        [
            "You already have a seat in this game. Nothing was changed.",
            "Ya tienes un asiento en esta partida. No se cambió nada.",
            "Hai già un posto in questa partita. Non è cambiato nulla.",
            "Vous avez déjà une place dans cette partie. Rien n'a été modifié.",
        ],
    ),
    (
        "game_refused_started",
        [
            "The game has already started. Nothing was changed.",
            "La partida ya ha empezado. No se cambió nada.",
            "La partita è già iniziata. Non è cambiato nulla.",
            "La partie a déjà commencé. Rien n'a été modifié.",
        ],
    ),
    (
        "game_refused_cancelled",
        [
            "The game was cancelled before it started. Nothing was changed.",
            "La partida se canceló antes de empezar. No se cambió nada.",
            "La partita è stata annullata prima di iniziare. Non è cambiato nulla.",
            "La partie a été annulée avant de commencer. Rien n'a été modifié.",
        ],
    ),
    (
        "game_refused_over",
        [
            "The game is over. Nothing was changed.",
            "La partida ha terminado. No se cambió nada.",
            "La partita è finita. Non è cambiato nulla.",
            "La partie est terminée. Rien n'a été modifié.",
        ],
    ),
    (
        "game_refused_no_seat",
        [
            "You are not invited to this game, and no seat is open. Nothing was changed.",
            "No estás invitado a esta partida y no queda ningún asiento libre. No se cambió nada.",
            "Non sei invitato a questa partita e non c'è nessun posto libero. Non è cambiato nulla.",
            "Vous n'êtes pas invité à cette partie et aucune place n'est libre. Rien n'a été modifié.",
        ],
    ),
    (
        "game_refused_no_invitation",
        [
            "You have no invitation to this game to decline. Nothing was changed.",
            "No tienes ninguna invitación a esta partida que rechazar. No se cambió nada.",
            "Non hai nessun invito a questa partita da rifiutare. Non è cambiato nulla.",
            "Vous n'avez aucune invitation à cette partie à refuser. Rien n'a été modifié.",
        ],
    ),
    (
        "game_refused_not_creator",
        [
            "Only the game's creator may cancel it. Nothing was changed.",
            "Solo quien creó la partida puede cancelarla. No se cambió nada.",
            "Solo chi ha creato la partita può annullarla. Non è cambiato nulla.",
            "Seul le créateur de la partie peut l'annuler. Rien n'a été modifié.",
        ],
    ),
    (
        "game_refused_declined",
        [
            "You declined this game's invitation, so you can no longer join it. Nothing was changed.",
            "Rechazaste la invitación a esta partida, así que ya no puedes unirte a ella. No se cambió nada.",
            "Hai rifiutato l'invito a questa partita, quindi non puoi più parteciparvi. Non è cambiato nulla.",
            "Vous avez refusé l'invitation à cette partie : vous ne pouvez plus la rejoindre. Rien n'a été modifié.",
        ],
    ),
    (
        "game_refused_already_declined",
        [
            "You have already declined this game's invitation. Nothing was changed.",
            "Ya rechazaste la invitación a esta partida. No se cambió nada.",
            "Hai già rifiutato l'invito a questa partita. Non è cambiato nulla.",
            "Vous avez déjà refusé l'invitation à cette partie. Rien n'a été modifié.",
        ],
    ),
    (
        "game_refused_withdrawn",
        [
            "The game's creator withdrew your invitation. Nothing was changed.",
            "Quien creó la partida retiró tu invitación. No se cambió nada.",
            "Chi ha creato la partita ha ritirato il tuo invito. Non è cambiato nulla.",
            "Le créateur de la partie a retiré votre invitation. Rien n'a été modifié.",
        ],
    ),
    (
        "refused_conflict",
        [
            "This cannot be done in the game's or the competition's present state. Nothing was changed.",
            "Esto no se puede hacer en el estado actual de la partida o de la competición. No se cambió nada.",
            "Non si può fare nello stato attuale della partita o della competizione. Non è cambiato nulla.",
            "Cela ne peut pas se faire dans l'état actuel de la partie ou de la compétition. Rien n'a été modifié.",
        ],
    ),
    (
        "refused_forbidden",
        [
            "You may not do this here. Nothing was changed.",
            "No puedes hacer esto aquí. No se cambió nada.",
            "Non puoi farlo qui. Non è cambiato nulla.",
            "Vous ne pouvez pas faire cela ici. Rien n'a été modifié.",
        ],
    ),
    (
        "refused_unauthenticated",
        [
            "Sign in to do this. Nothing was changed.",
            "Entra para hacer esto. No se cambió nada.",
            "Accedi per farlo. Non è cambiato nulla.",
            "Connectez-vous pour faire cela. Rien n'a été modifié.",
        ],
    ),
    (
        "refused_request",
        [
            "This request was not accepted as it stands. Nothing was changed.",
            "No se aceptó esta petición tal como está. No se cambió nada.",
            "Questa richiesta non è stata accettata così com'è. Non è cambiato nulla.",
            "Cette demande n'a pas été acceptée telle quelle. Rien n'a été modifié.",
        ],
    ),
    ("chat", ["Chat", "Chat", "Chat", "Discussion"]),
    (
        "chat_empty",
        [
            "No messages yet.",
            "Aún no hay mensajes.",
            "Ancora nessun messaggio.",
            "Pas encore de message.",
        ],
    ),
    ("chat_say", ["Message", "Mensaje", "Messaggio", "Message"]),
    ("chat_send", ["Send", "Enviar", "Invia", "Envoyer"]),
];

/// The text of `key` in `locale`; the key itself when unknown (a bug, visible but harmless).
pub fn t(locale: Locale, key: &str) -> &'static str {
    let i = locale.index();
    STRINGS
        .iter()
        .find(|(k, _)| *k == key)
        .map_or("?", |(_, texts)| texts[i])
}

/// The first of en, es, it, fr in the request's `Accept-Language` (for visitors without an
/// account); English otherwise.
pub fn request_locale(req: &actix_web::HttpRequest) -> Locale {
    let header = req
        .headers()
        .get(actix_web::http::header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    header
        .split(',')
        .map(|part| {
            part.split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase()
        })
        .find_map(|tag| match tag.split('-').next().unwrap_or("") {
            "en" => Some(Locale::En),
            "es" => Some(Locale::Es),
            "it" => Some(Locale::It),
            "fr" => Some(Locale::Fr),
            _ => None,
        })
        .unwrap_or(Locale::En)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_key_is_listed_twice() {
        let mut seen = std::collections::BTreeSet::new();
        for (key, _) in STRINGS {
            assert!(
                seen.insert(*key),
                "{key} is listed twice: the second is never read"
            );
        }
    }

    #[test]
    fn every_key_has_four_non_empty_texts() {
        for (key, texts) in STRINGS {
            assert!(texts.iter().all(|t| !t.is_empty()), "{key}");
        }
        assert_eq!(t(Locale::Fr, "your_move"), "À vous de jouer");
    }

    /// Every source under `src/web` but this one (whose tests hold examples), read from the
    /// tree: a page added later is read too.
    fn page_sources() -> Vec<(std::path::PathBuf, String)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web");
        let (mut dirs, mut sources) = (vec![root], Vec::new());
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") && !path.ends_with("i18n.rs")
                {
                    let text = std::fs::read_to_string(&path).unwrap();
                    sources.push((path, text));
                }
            }
        }
        sources
    }

    /// The top-level pieces of the list that `text` begins (just after its `(`), up to its `)`,
    /// trimmed. Strings and characters are passed over whole, and with `angles` so are `<...>` (a
    /// parameter's type may hold commas there; a call's `<` may be a comparison).
    fn pieces(text: &str, angles: bool) -> Vec<&str> {
        let bytes = text.as_bytes();
        let (mut depth, mut angle, mut start, mut i) = (0usize, 0usize, 0, 0);
        let mut out = Vec::new();
        while i < bytes.len() {
            match bytes[i] {
                b'"' => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                }
                // A character (`','`, `'\n'`); a lifetime (`'static`) has no closing quote.
                b'\'' if bytes.get(i + 1) == Some(&b'\\') => {
                    i += 3;
                    while i < bytes.len() && bytes[i] != b'\'' {
                        i += 1;
                    }
                }
                b'\'' if bytes.get(i + 2) == Some(&b'\'') => i += 2,
                b'(' | b'[' | b'{' => depth += 1,
                b'<' if angles => angle += 1,
                b'>' if angles && angle > 0 && bytes[i - 1] != b'-' => angle -= 1,
                b')' | b']' | b'}' if depth == 0 => break,
                b')' | b']' | b'}' => depth -= 1,
                b',' if depth == 0 && angle == 0 => {
                    out.push(text[start..i].trim());
                    start = i + 1;
                }
                _ => {}
            }
            i += 1;
        }
        let last = text[start..i.min(text.len())].trim();
        if !last.is_empty() {
            out.push(last);
        }
        out
    }

    /// Whether `name` at `at` in `src` is a whole name (not the end of a longer one).
    fn whole(src: &str, at: usize) -> bool {
        !src[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    }

    /// The functions of `src` that take a catalogue key: by the pages' convention, a parameter
    /// `label: &'static str` (a refused field's label), as `count`, `number`, `uuid_field`,
    /// `unfit` and `offered` take it; each by name, with the parameter's place.
    fn key_takers(src: &str) -> Vec<(String, usize)> {
        let mut found = Vec::new();
        for (at, _) in src.match_indices("fn ").filter(|(at, _)| whole(src, *at)) {
            let rest = &src[at + 3..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let mut rest = &rest[name.len()..];
            if rest.starts_with('<') {
                // The generics, `<` to its `>`.
                let (mut angle, mut end) = (0, 0);
                for (i, c) in rest.char_indices() {
                    match c {
                        '<' => angle += 1,
                        '>' if !rest[..i].ends_with('-') => angle -= 1,
                        _ => {}
                    }
                    if angle == 0 {
                        end = i + 1;
                        break;
                    }
                }
                rest = &rest[end..];
            }
            let Some(params) = rest.strip_prefix('(') else {
                continue;
            };
            for (i, param) in pieces(params, true).iter().enumerate() {
                let compact: String = param.chars().filter(|c| !c.is_whitespace()).collect();
                if compact == "label:&'staticstr" {
                    found.push((name.clone(), i));
                }
            }
        }
        found
    }

    /// The string literals `src` gives as argument `index` of `callee`: the argument itself, or
    /// each arm of a `match` there that is a literal (`t(l, match s { A => "a", B => "b" })`).
    fn keys_given(src: &str, callee: &str, index: usize) -> Vec<String> {
        let literal = |text: &str| -> Option<String> {
            Some(text.strip_prefix('"')?.strip_suffix('"')?.to_owned())
        };
        let call = format!("{callee}(");
        src.match_indices(&call)
            .filter(|(at, _)| whole(src, *at) && !src[..*at].ends_with("fn "))
            .flat_map(|(at, _)| {
                let args = pieces(&src[at + call.len()..], false);
                let Some(arg) = args.get(index) else {
                    return Vec::new();
                };
                match arg.strip_prefix("match ").and_then(|m| m.split_once('{')) {
                    Some((_, arms)) => pieces(arms, false)
                        .iter()
                        .filter_map(|arm| literal(arm.split_once("=>")?.1.trim()))
                        .collect(),
                    None => literal(arg).into_iter().collect(),
                }
            })
            .collect()
    }

    #[test]
    fn every_key_the_pages_use_is_translated() {
        let sources = page_sources();
        // A key is written out where it is used (`t(l, "...")`, whatever the locale's
        // expression), handed on as a notice's, as what a query parameter or a form field takes,
        // or as a refused field's label: to the variants below, or to a function taking a
        // `label: &'static str` (found in the sources, so a new one is checked too).
        let mut takers: Vec<(String, usize)> = [
            ("t", 1),
            ("Notice::Key", 0),
            ("Label::Key", 0),
            ("Accepts::Described", 0),
            ("Accepts::Counted", 0),
            ("Accepts::Between", 0),
            ("Accepts::Between", 1),
            ("Accepts::between", 0),
            ("Accepts::between", 1),
        ]
        .into_iter()
        .map(|(name, i)| (name.to_owned(), i))
        .collect();
        for (_, src) in &sources {
            takers.extend(key_takers(src));
        }
        for helper in ["count", "number", "uuid_field", "unfit", "offered"] {
            assert!(
                takers.iter().any(|(name, _)| name == helper),
                "{helper} takes a label's key but was not found: {takers:?}"
            );
        }
        let mut checked = 0;
        for (path, src) in &sources {
            for (callee, index) in &takers {
                for key in keys_given(src, callee, *index) {
                    assert_ne!(
                        t(Locale::It, &key),
                        "?",
                        "untranslated key {key} given to {callee} in {}",
                        path.display()
                    );
                    checked += 1;
                }
            }
        }
        assert!(
            checked > 300,
            "only {checked} keys found: the reading is broken"
        );
    }

    #[test]
    fn the_reading_of_calls_finds_each_argument_and_each_label_parameter() {
        let src = r#"
            fn number<T: FromStr>(form: &Fields, name: &str, label: &'static str, d: T) -> T {}
            fn other(map: HashMap<K, V>, label: &'static str) {}
            let a = number(form, "rounds", "comp_rounds", (1, 2));
            let b = other(m(x, y), "preset");
            let c = t(chrome.locale, "error");
            let d = format(t(l, "x"), ',', '\'', "y");
            let e = t(l, match s { S::A => "arm_a", S::B => "arm_b", _ => other(s) });
        "#;
        assert_eq!(
            key_takers(src),
            [("number".to_owned(), 2), ("other".to_owned(), 1)]
        );
        assert_eq!(keys_given(src, "number", 2), ["comp_rounds"]);
        assert_eq!(keys_given(src, "other", 1), ["preset"]);
        assert_eq!(keys_given(src, "t", 1), ["error", "x", "arm_a", "arm_b"]);
        assert_eq!(keys_given(src, "format", 3), ["y"]);
    }
}
