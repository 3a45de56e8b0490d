// i18n.js: every string of the client in Spanish and English.
// t(key, params) fills {name} placeholders; elements with data-i18n="key"
// (text), data-i18n-label="key" (aria-label) or data-i18n-title="key" get
// their text from applyStatic().

const STRINGS = {
  es: {
    'app.title': 'Oware',
    'app.tagline': 'Oware Abapa para dos, en una sala privada',
    'lang.switch': 'English',
    'lang.switch.label': 'Switch to English',

    'start.online.title': 'Jugar en línea',
    'start.online.text': 'Crea una sala privada y envía el enlace a tu rival.',
    'start.side.legend': 'Tu lado',
    'start.side.south': 'Sur (empiezas tú)',
    'start.side.north': 'Norte',
    'start.side.random': 'Al azar',
    'start.create': 'Crear sala',
    'start.creating': 'Creando la sala…',
    'start.local.title': 'En este dispositivo',
    'start.local.text': 'Dos jugadores se turnan en la misma pantalla, o juegas contra la IA. No hace falta conexión.',
    'start.local.play': 'Jugar a dos',
    'start.local.resume': 'Seguir la partida',
    'ai.title': 'Contra la IA',
    'ai.level': 'Nivel',
    'ai.level.easy': 'Fácil',
    'ai.level.medium': 'Medio',
    'ai.level.hard': 'Difícil',
    'ai.play': 'Jugar contra la IA',
    'ai.name': '{side} (IA, {level})',
    'ai.thinking': 'La IA está pensando…',
    'ai.thinking.short': 'Pensando…',
    'action.hint': 'Pista',
    'hint.note': 'Pista: siembra {pit}.',
    'action.undo': 'Deshacer',
    'undo.one': 'Se deshizo la jugada {move}.',
    'undo.two': 'Se deshicieron las jugadas {first} y {second}.',
    'start.rules.title': 'Cómo se juega',
    'start.rules.1': 'Cada jugador tiene seis hoyos con cuatro semillas: la fila más cercana a ti es la tuya. Empieza el sur.',
    'start.rules.2': 'En tu turno, recoges todas las semillas de un hoyo propio y las siembras de una en una en los hoyos siguientes, en sentido antihorario. Con 12 o más se salta el hoyo de origen.',
    'start.rules.3': 'Si la última semilla cae en un hoyo rival y lo deja con 2 o 3, capturas esas semillas y sigues hacia atrás mientras los hoyos rivales tengan 2 o 3.',
    'start.rules.4': 'Si la captura se llevaría todas las semillas del rival, se anula (gran slam). Si el rival no tiene semillas, debes alimentarlo si puedes.',
    'start.rules.5': 'Gana quien captura 25 semillas o más; 24 a 24 es empate.',
    'start.error.engine': 'No se pudo cargar el motor del juego. Recarga la página.',

    'side.south': 'Sur',
    'side.north': 'Norte',
    'seat.you': '{side} (tú)',
    'seat.open': '{side}: libre',
    'seat.connected': 'conectado',
    'seat.disconnected': 'desconectado',
    'seat.waiting': 'esperando',
    'seat.spectators': 'Espectadores: {n}',
    'role.spectator': 'Estás mirando la partida',

    'conn.connecting': 'Conectando…',
    'conn.online': 'Conectado',
    'conn.reconnecting': 'Sin conexión. Reconectando en {s} s…',
    'conn.reconnecting.now': 'Sin conexión. Reconectando…',
    'conn.replaced': 'Esta partida se abrió en otra pestaña o dispositivo.',
    'conn.takeback': 'Jugar aquí',
    'conn.retry': 'Reintentar ahora',
    'conn.noroom': 'Esta sala no existe o ha caducado.',
    'conn.home': 'Volver al inicio',

    'share.title': 'Invita a tu rival',
    'share.text': 'Envía este enlace. Quien lo abra primero se sienta enfrente; los demás miran.',
    'share.copy': 'Copiar enlace',
    'share.copied': 'Enlace copiado',
    'share.native': 'Compartir',
    'share.message': '¿Jugamos al oware? Abre este enlace:',
    'share.label': 'Enlace de la sala',
    'wait.opponent': 'Esperando a que llegue tu rival…',
    'wait.reconnect': 'Esperando a que tu rival se reconecte…',
    'wait.claim_in': 'Podrás reclamar la victoria en {s} s.',
    'wait.claimable': 'Tu rival lleva demasiado tiempo fuera: puedes reclamar la victoria o seguir esperando.',
    'player.turn': 'juega',
    'title.turn': 'Te toca',

    'turn.yours': 'Te toca: elige uno de tus hoyos',
    'turn.theirs': 'Turno del rival ({side})',
    'turn.side': 'Turno: {side}',
    'turn.local': 'Turno de {side}: elige un hoyo de tu fila',
    'turn.sending': 'Enviando tu jugada…',

    'store.label': 'Capturadas por {side}: {n}',
    'board.label': 'Tablero',
    'score.label': '{south} a {north}',

    'preview.lands': 'La última semilla cae en {pit}.',
    'preview.captures': 'La última semilla cae en {pit} y captura {n}.',
    'preview.slam': 'La última semilla cae en {pit}: gran slam, la captura se anula.',
    'preview.hint': 'Pasa el ratón o el foco por un hoyo para ver dónde cae la última semilla.',

    'last.move': '{side} sembró {pit}.',
    'last.capture': '{side} sembró {pit} y capturó {n} semillas ({pits}).',
    'last.slam': '{side} sembró {pit}: habría capturado todas las semillas del rival, así que la captura se anula (gran slam).',

    'action.resign': 'Rendirse',
    'action.resign.confirm': '¿Seguro que quieres rendirte? Tu rival gana la partida.',
    'action.resign.yes': 'Sí, me rindo',
    'action.cancel': 'Cancelar',
    'action.draw.offer': 'Proponer empate',
    'action.draw.offered': 'Has propuesto un empate. Esperando respuesta…',
    'action.draw.incoming': 'Tu rival propone un empate.',
    'action.draw.accept': 'Aceptar empate',
    'action.draw.decline': 'Rechazar',
    'action.abort': 'Anular partida',
    'action.claim': 'Reclamar la victoria',
    'action.rematch': 'Revancha',
    'action.rematch.offered': 'Has pedido la revancha. Esperando respuesta…',
    'action.rematch.incoming': 'Tu rival pide la revancha (con los lados cambiados).',
    'action.rematch.accept': 'Aceptar revancha',
    'action.newgame': 'Nueva partida',
    'action.home': 'Inicio',
    'action.flip': 'Girar el tablero',

    'over.title': 'Fin de la partida',
    'over.you_win': '¡Has ganado!',
    'over.you_lose': 'Has perdido.',
    'over.winner': 'Gana {side}.',
    'over.draw': 'Empate.',
    'over.aborted': 'Partida anulada.',
    'over.score': 'Puntuación final: Sur {south}, Norte {north}',
    'reason.score': 'por semillas capturadas',
    'reason.repetition': 'la posición se repitió tres veces; cada lado se queda con las semillas de su fila',
    'reason.move_limit': '160 jugadas sin capturas; cada lado se queda con las semillas de su fila',
    'reason.no_moves': 'el jugador en turno no tenía jugada; cada lado se queda con las semillas de su fila',
    'reason.resign': 'por rendición',
    'reason.agreement': 'empate acordado',
    'reason.abandoned': 'el rival abandonó la partida',
    'reason.aborted': 'la partida se anuló antes de empezar',

    'moves.title': 'Jugadas',
    'moves.none': 'Aún no hay jugadas.',
    'review.title': 'Revisar la partida',
    'review.first': 'Al principio',
    'review.prev': 'Jugada anterior',
    'review.next': 'Jugada siguiente',
    'review.last': 'Al final',
    'review.position': 'Posición tras {n} de {total} jugadas',
    'review.start': 'Posición inicial',
    'record.copy': 'Copiar el registro',
    'record.copied': 'Registro copiado',
    'record.header': 'Oware Abapa',
    'record.result': 'Resultado',

    'announce.start': 'Empieza la partida. Juega el sur.',
    'announce.opponent_joined': 'Tu rival ha llegado.',
    'announce.turn': 'Te toca.',

    'error.bad_json': 'El servidor no entendió el mensaje.',
    'error.bad_message': 'El servidor no entendió el mensaje.',
    'error.unknown_type': 'El servidor no entendió el mensaje.',
    'error.not_joined': 'Todavía no estás en la sala.',
    'error.already_joined': 'Ya estás en la sala.',
    'error.no_room': 'Esta sala no existe o ha caducado.',
    'error.bad_token': 'Tu asiento ya no es válido; entras como nuevo jugador.',
    'error.not_a_player': 'Estás mirando: solo los jugadores pueden actuar.',
    'error.not_your_turn': 'No es tu turno.',
    'error.illegal_move': 'Esa jugada no es legal.',
    'error.stale_ply': 'La partida ha cambiado; se muestra la posición actual.',
    'error.game_over': 'La partida ya ha terminado.',
    'error.game_not_over': 'La partida aún no ha terminado.',
    'error.no_offer': 'No hay ninguna propuesta pendiente.',
    'error.offer_pending': 'Ya tienes una propuesta pendiente.',
    'error.cannot_abort': 'Ya no se puede anular: los dos habéis jugado.',
    'error.cannot_claim': 'Todavía no puedes reclamar la victoria.',
    'error.opponent_missing': 'Tu rival aún no ha llegado.',
    'error.too_many_rooms': 'El servidor está lleno. Prueba más tarde.',
    'error.rate_limited': 'Demasiadas peticiones. Espera un momento.',
    'error.too_many_spectators': 'La sala tiene demasiados espectadores.',
    'error.too_many_connections': 'Demasiadas conexiones desde tu red.',
    'error.replaced': 'Esta partida se abrió en otra pestaña o dispositivo.',
    'error.internal': 'Error del servidor: no se guardó el cambio.',
    'error.unknown': 'Algo salió mal ({code}).',
    'engine.must_feed': 'Tu rival no tiene semillas: debes alimentarlo.',
    'engine.empty': 'Ese hoyo está vacío.',
    'engine.not_yours': 'Ese hoyo no es tuyo.',
    'engine.over': 'La partida ya ha terminado.',

    // Headings, pit labels, copying, marks, review, touch, a new local game.
    'screen.loading': 'Oware',
    'screen.online': 'Partida en línea',
    'screen.watch': 'Viendo una partida en línea',
    'screen.local': 'Dos jugadores en este dispositivo',
    'screen.ai': 'Partida contra la IA',
    'pit.owner.yours': 'tuyo',
    'pit.owner.side': 'del {side}',
    'pit.label': 'Hoyo {pit}, {owner}: {n} semillas',
    'pit.label.one': 'Hoyo {pit}, {owner}: 1 semilla',
    'pit.label.sow': 'Pulsa para sembrar.',
    'copy.failed': 'No se pudo copiar. El texto está seleccionado aquí: cópialo a mano (Ctrl+C, o mantén pulsado y elige Copiar).',
    'copy.box': 'Texto para copiar',
    'option.tap': 'Un toque para ver la jugada, otro para jugarla',
    'local.replace.confirm': 'La partida en este dispositivo no ha terminado. ¿Empezar otra? La que está en curso se perderá.',
    'local.replace.yes': 'Empezar otra partida',
  },
  en: {
    'app.title': 'Oware',
    'app.tagline': 'Oware Abapa for two, in a private room',
    'lang.switch': 'Español',
    'lang.switch.label': 'Cambiar a español',

    'start.online.title': 'Play online',
    'start.online.text': 'Create a private room and send the link to your opponent.',
    'start.side.legend': 'Your side',
    'start.side.south': 'South (you start)',
    'start.side.north': 'North',
    'start.side.random': 'Random',
    'start.create': 'Create room',
    'start.creating': 'Creating the room…',
    'start.local.title': 'On this device',
    'start.local.text': 'Two players take turns on the same screen, or you play the computer. No connection needed.',
    'start.local.play': 'Two players',
    'start.local.resume': 'Resume the game',
    'ai.title': 'Against the computer',
    'ai.level': 'Level',
    'ai.level.easy': 'Easy',
    'ai.level.medium': 'Medium',
    'ai.level.hard': 'Hard',
    'ai.play': 'Play the computer',
    'ai.name': '{side} (computer, {level})',
    'ai.thinking': 'The computer is thinking…',
    'ai.thinking.short': 'Thinking…',
    'action.hint': 'Hint',
    'hint.note': 'Hint: sow {pit}.',
    'action.undo': 'Undo',
    'undo.one': 'Move {move} taken back.',
    'undo.two': 'Moves {first} and {second} taken back.',
    'start.rules.title': 'How to play',
    'start.rules.1': 'Each player has six pits of four seeds: the row nearest you is yours. South starts.',
    'start.rules.2': 'On your turn, take all the seeds of one of your pits and sow them one by one into the following pits, counter-clockwise. With 12 or more the origin pit is skipped.',
    'start.rules.3': 'If the last seed lands in an opponent\'s pit and leaves 2 or 3 there, you capture them, then go backwards while the opponent\'s pits hold 2 or 3.',
    'start.rules.4': 'A capture that would take all of the opponent\'s seeds is annulled (grand slam). If your opponent has no seeds, you must feed them if you can.',
    'start.rules.5': 'Capture 25 seeds or more to win; 24 each is a draw.',
    'start.error.engine': 'The game engine could not be loaded. Reload the page.',

    'side.south': 'South',
    'side.north': 'North',
    'seat.you': '{side} (you)',
    'seat.open': '{side}: open',
    'seat.connected': 'connected',
    'seat.disconnected': 'disconnected',
    'seat.waiting': 'waiting',
    'seat.spectators': 'Spectators: {n}',
    'role.spectator': 'You are watching this game',

    'conn.connecting': 'Connecting…',
    'conn.online': 'Connected',
    'conn.reconnecting': 'Offline. Reconnecting in {s} s…',
    'conn.reconnecting.now': 'Offline. Reconnecting…',
    'conn.replaced': 'This game was opened in another tab or device.',
    'conn.takeback': 'Play here',
    'conn.retry': 'Retry now',
    'conn.noroom': 'This room does not exist or has expired.',
    'conn.home': 'Back to start',

    'share.title': 'Invite your opponent',
    'share.text': 'Send this link. The first to open it takes the other seat; anyone else watches.',
    'share.copy': 'Copy link',
    'share.copied': 'Link copied',
    'share.native': 'Share',
    'share.message': 'A game of oware? Open this link:',
    'share.label': 'Room link',
    'wait.opponent': 'Waiting for your opponent to arrive…',
    'wait.reconnect': 'Waiting for your opponent to reconnect…',
    'wait.claim_in': 'You can claim the win in {s} s.',
    'wait.claimable': 'Your opponent has been gone too long: you may claim the win, or keep waiting.',
    'player.turn': 'to move',
    'title.turn': 'Your move',

    'turn.yours': 'Your turn: pick one of your pits',
    'turn.theirs': 'Opponent\'s turn ({side})',
    'turn.side': 'Turn: {side}',
    'turn.local': '{side} to move: pick a pit in your row',
    'turn.sending': 'Sending your move…',

    'store.label': 'Captured by {side}: {n}',
    'board.label': 'Board',
    'score.label': '{south} to {north}',

    'preview.lands': 'The last seed lands in {pit}.',
    'preview.captures': 'The last seed lands in {pit} and captures {n}.',
    'preview.slam': 'The last seed lands in {pit}: grand slam, the capture is annulled.',
    'preview.hint': 'Hover over or focus a pit to see where the last seed lands.',

    'last.move': '{side} sowed {pit}.',
    'last.capture': '{side} sowed {pit} and captured {n} seeds ({pits}).',
    'last.slam': '{side} sowed {pit}: it would have captured all the opponent\'s seeds, so the capture is annulled (grand slam).',

    'action.resign': 'Resign',
    'action.resign.confirm': 'Do you really want to resign? Your opponent wins the game.',
    'action.resign.yes': 'Yes, resign',
    'action.cancel': 'Cancel',
    'action.draw.offer': 'Offer a draw',
    'action.draw.offered': 'You offered a draw. Waiting for an answer…',
    'action.draw.incoming': 'Your opponent offers a draw.',
    'action.draw.accept': 'Accept draw',
    'action.draw.decline': 'Decline',
    'action.abort': 'Abort game',
    'action.claim': 'Claim the win',
    'action.rematch': 'Rematch',
    'action.rematch.offered': 'You asked for a rematch. Waiting for an answer…',
    'action.rematch.incoming': 'Your opponent wants a rematch (sides swapped).',
    'action.rematch.accept': 'Accept rematch',
    'action.newgame': 'New game',
    'action.home': 'Home',
    'action.flip': 'Turn the board',

    'over.title': 'Game over',
    'over.you_win': 'You won!',
    'over.you_lose': 'You lost.',
    'over.winner': '{side} wins.',
    'over.draw': 'Draw.',
    'over.aborted': 'Game aborted.',
    'over.score': 'Final score: South {south}, North {north}',
    'reason.score': 'on captured seeds',
    'reason.repetition': 'the position occurred three times; each side keeps the seeds in its row',
    'reason.move_limit': '160 moves without a capture; each side keeps the seeds in its row',
    'reason.no_moves': 'the player to move had no move; each side keeps the seeds in its row',
    'reason.resign': 'by resignation',
    'reason.agreement': 'draw agreed',
    'reason.abandoned': 'the opponent abandoned the game',
    'reason.aborted': 'the game was aborted before it started',

    'moves.title': 'Moves',
    'moves.none': 'No moves yet.',
    'review.title': 'Review the game',
    'review.first': 'To the start',
    'review.prev': 'Previous move',
    'review.next': 'Next move',
    'review.last': 'To the end',
    'review.position': 'Position after {n} of {total} moves',
    'review.start': 'Starting position',
    'record.copy': 'Copy the record',
    'record.copied': 'Record copied',
    'record.header': 'Oware Abapa',
    'record.result': 'Result',

    'announce.start': 'The game begins. South moves first.',
    'announce.opponent_joined': 'Your opponent has arrived.',
    'announce.turn': 'Your turn.',

    'error.bad_json': 'The server did not understand the message.',
    'error.bad_message': 'The server did not understand the message.',
    'error.unknown_type': 'The server did not understand the message.',
    'error.not_joined': 'You are not in the room yet.',
    'error.already_joined': 'You are already in the room.',
    'error.no_room': 'This room does not exist or has expired.',
    'error.bad_token': 'Your seat is no longer valid; joining as a new player.',
    'error.not_a_player': 'You are watching: only the players can act.',
    'error.not_your_turn': 'It is not your turn.',
    'error.illegal_move': 'That move is not legal.',
    'error.stale_ply': 'The game has moved on; showing the current position.',
    'error.game_over': 'The game is already over.',
    'error.game_not_over': 'The game is not over yet.',
    'error.no_offer': 'There is no pending offer.',
    'error.offer_pending': 'Your offer is still pending.',
    'error.cannot_abort': 'Too late to abort: you have both moved.',
    'error.cannot_claim': 'You cannot claim the win yet.',
    'error.opponent_missing': 'Your opponent has not arrived yet.',
    'error.too_many_rooms': 'The server is full. Try again later.',
    'error.rate_limited': 'Too many requests. Wait a moment.',
    'error.too_many_spectators': 'The room has too many spectators.',
    'error.too_many_connections': 'Too many connections from your network.',
    'error.replaced': 'This game was opened in another tab or device.',
    'error.internal': 'Server error: the change was not saved.',
    'error.unknown': 'Something went wrong ({code}).',
    'engine.must_feed': 'Your opponent has no seeds: you must feed them.',
    'engine.empty': 'That pit is empty.',
    'engine.not_yours': 'That pit is not yours.',
    'engine.over': 'The game is already over.',

    // Headings, pit labels, copying, marks, review, touch, a new local game.
    'screen.loading': 'Oware',
    'screen.online': 'Online game',
    'screen.watch': 'Watching an online game',
    'screen.local': 'Two players on this device',
    'screen.ai': 'Playing the computer',
    'pit.owner.yours': 'yours',
    'pit.owner.side': '{side}\'s',
    'pit.label': 'Pit {pit}, {owner}: {n} seeds',
    'pit.label.one': 'Pit {pit}, {owner}: 1 seed',
    'pit.label.sow': 'Press to sow.',
    'copy.failed': 'Could not copy. The text is selected here: copy it by hand (Ctrl+C, or press and hold, then Copy).',
    'copy.box': 'Text to copy',
    'option.tap': 'Tap once to preview, tap again to play',
    'local.replace.confirm': 'The game on this device is not finished. Start a new one? The game in progress will be lost.',
    'local.replace.yes': 'Start a new game',
  },
};

export const LANGS = Object.keys(STRINGS);
const STORE_KEY = 'oware.lang';
let lang = 'en';

function storedLang() {
  try { return localStorage.getItem(STORE_KEY); } catch { return null; }
}

// Picks the stored choice, else the first Spanish or English browser language.
export function initLang() {
  const saved = storedLang();
  if (saved && STRINGS[saved]) {
    lang = saved;
  } else {
    const prefs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en'];
    const hit = prefs.map((l) => String(l).toLowerCase().slice(0, 2)).find((l) => STRINGS[l]);
    lang = hit || 'en';
  }
  document.documentElement.lang = lang;
  return lang;
}

export function getLang() { return lang; }

export function setLang(l) {
  if (!STRINGS[l]) return;
  lang = l;
  try { localStorage.setItem(STORE_KEY, l); } catch { /* private mode */ }
  document.documentElement.lang = l;
  applyStatic();
}

export function t(key, params) {
  let s = STRINGS[lang][key];
  if (s === undefined) s = STRINGS.en[key];
  if (s === undefined) return key;
  if (params) s = s.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined ? String(params[k]) : m));
  return s;
}

export function has(key) { return STRINGS[lang][key] !== undefined; }

export function applyStatic(root = document) {
  root.querySelectorAll('[data-i18n]').forEach((el) => { el.textContent = t(el.dataset.i18n); });
  root.querySelectorAll('[data-i18n-label]').forEach((el) => { el.setAttribute('aria-label', t(el.dataset.i18nLabel)); });
  root.querySelectorAll('[data-i18n-title]').forEach((el) => { el.title = t(el.dataset.i18nTitle); });
  document.title = t('app.title');
}

// For tests: both tables must have the same keys.
export function missingKeys() {
  const out = [];
  for (const a of LANGS) for (const b of LANGS) {
    for (const k of Object.keys(STRINGS[a])) if (STRINGS[b][k] === undefined) out.push(`${b}:${k}`);
  }
  return out;
}
