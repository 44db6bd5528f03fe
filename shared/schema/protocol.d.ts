// Generated from the JSON Schema in this folder by `muggins schema`; do not edit.
// The browser client (server/www/) is type-checked against these with tsc --noEmit.

declare namespace MugginsClient {
  /** Muggins mode: let the opponent's count stand as claimed. */
  interface AcceptCount {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    /** the seq of the state this move answers (from the latest state); the server applies the move only at that seq, and answers an older one with 'stale' */
    seq: number;
    type?: "accept";
  }
  interface AnswerRestart {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "answer_restart";
    accept: boolean;
    /** optional: the seq of the state this answers; if given, the server acts only at that seq and answers an older one with 'stale' (so a repeat cannot act twice) */
    seq?: number | null;
  }
  /** Against the computer: ask the coach for your best move now (answered with ``hint``). */
  interface AskHint {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "hint";
  }
  /** For yourself: ``block`` (matchmaking never pairs you) or ``hide_chat`` (their chat is not sent to you); ``on`` false undoes it. Signed in, for a registered player. */
  interface Block {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "block";
    name: string;
    what?: "block" | "hide_chat";
    on?: boolean;
  }
  /** Muggins mode: call "Muggins!" on a short count and take the points it missed (if the count was not short, the owner pegs two more). */
  interface CallMuggins {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    /** the seq of the state this move answers (from the latest state); the server applies the move only at that seq, and answers an older one with 'stale' */
    seq: number;
    type?: "muggins";
  }
  interface CancelSeek {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "cancel_seek";
  }
  /** Muggins mode: challenge an over-count; the owner is put back to the true total and you take the excess (if the count was not over, the owner pegs two more). */
  interface ChallengeCount {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    /** the seq of the state this move answers (from the latest state); the server applies the move only at that seq, and answers an older one with 'stale' */
    seq: number;
    type?: "challenge";
  }
  /** Every other session ends; the answer carries a new session token. */
  interface ChangePassword {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "change_password";
    old: string;
    new: string;
  }
  interface Chat {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "chat";
    text: string;
  }
  /** After the opponent has been gone past the grace period: win the game, or seat the bot. */
  interface Claim {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "claim";
    take?: "win" | "bot";
    /** optional: the seq of the state this answers; if given, the server acts only at that seq and answers an older one with 'stale' (so a repeat cannot act twice) */
    seq?: number | null;
  }
  /** Muggins mode: claim the points in your hand or crib; any claim from 0 to 29 stands until the opponent answers it. */
  interface CountPoints {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    /** the seq of the state this move answers (from the latest state); the server applies the move only at that seq, and answers an older one with 'stale' */
    seq: number;
    type?: "count";
    points: number;
  }
  /** Open a room and take its first seat. */
  interface CreateRoom {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "create_room";
    options?: RoomOptions;
  }
  /** Make a tournament (an admin or a moderator; anyone, if the server allows it). */
  interface CreateTournament {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "create_tournament";
    name: string;
    kind: "arena" | "swiss";
    /** an arena: how long it runs once started */
    minutes?: number;
    /** a Swiss: how many rounds */
    rounds?: number;
    /** on duplicate deals: in a Swiss every pairing of a round plays the same deals; in an arena each pairing plays a duplicate match (two tables, seats swapped) */
    duplicate?: boolean;
    /** bot accounts may join */
    bots?: boolean;
    target?: 121 | 61;
  }
  /** Delete the signed-in account, its sessions, rating and history; the name is free again. */
  interface DeleteAccount {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "delete_account";
    password: string;
  }
  /** Lay two cards away to the crib. (The engine refuses any other number, with a sentence.) */
  interface DiscardCards {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    /** the seq of the state this move answers (from the latest state); the server applies the move only at that seq, and answers an older one with 'stale' */
    seq: number;
    type?: "discard";
    cards: string[];
  }
  /** How a match is played. */
  interface GameOptions {
    target?: 121 | 61;
    muggins?: boolean;
    /** game points: standard 1/2/3 (skunk, double skunk), acc 2/3/3, games 1 for any win (so match_to 2 is best of three) */
    scheme?: "standard" | "acc" | "games";
    /** game points that win the match */
    match_to?: number;
  }
  /** A finished match in full, to replay or review: every card, once the match is over. */
  interface GetGame {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "game";
    /** a game id such as ABCDEF-1 */
    game: string;
    /** also send the match replayed step by step (steps) */
    steps?: boolean;
  }
  /** A player's finished matches, newest first; without a name, your own. */
  interface GetHistory {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "history";
    name?: string | null;
    limit?: number;
  }
  interface GetLeaderboard {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "leaderboard";
    limit?: number;
  }
  /** The moderation view (moderators and admins); with ``name``, that account's too. */
  interface GetModeration {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "moderation";
    name?: string | null;
  }
  /** A player's rating and record; without a name, your own. */
  interface GetProfile {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "profile";
    name?: string | null;
  }
  /** Grade one seat's decisions in a finished match against the expert's. */
  interface GetReview {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "review";
    /** a game id such as ABCDEF-1 */
    game: string;
    /** the seat to review; None: yours if you played it signed in, else seat 0 */
    seat?: number | null;
  }
  /** A tournament's standings and games. */
  interface GetTournament {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "get_tournament";
    tournament: string;
  }
  /** The first message on a connection. With a resume token it takes back your seat. */
  interface Hello {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "hello";
    /** shown to others, sanitised */
    name: string;
    /** the protocol version the client speaks */
    protocol: number;
    /** from a past welcome */
    token?: string | null;
  }
  /** Take the empty seat of a room, by its code (case does not matter). */
  interface JoinRoom {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "join_room";
    code: string;
  }
  /** Join (or come back to) a tournament; an arena pairs you as soon as you are free. */
  interface JoinTournament {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "join_tournament";
    tournament: string;
  }
  /** Leave the room. A seated player's seat stays theirs until the grace period ends. */
  interface Leave {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "leave";
  }
  /** Stop being paired (an arena keeps your points; come back with ``join_tournament``). */
  interface LeaveTournament {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "leave_tournament";
    tournament: string;
  }
  /** Ask for the public rooms with an empty seat, then the games one may watch, a page at a time: the answer's ``next`` (if not null) asks for the page after it. */
  interface ListRooms {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "list_rooms";
    /** the 'next' of the previous page; None: the first page */
    after?: string | null;
    /** rooms on this page at most */
    limit?: number;
  }
  interface ListTournaments {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "list_tournaments";
  }
  /** A moderator's action (moderators and admins only; everyone else gets ``not_allowed``). */
  interface Moderate {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "moderate";
    action: "ban" | "unban" | "mute" | "unmute" | "void" | "rename" | "close_room" | "remove_line" | "close_report";
    /** the account (ban, unban, mute, unmute, rename) */
    name?: string | null;
    reason?: string;
    /** how long (ban, mute); none: for good */
    minutes?: number | null;
    /** ban: the account's address too */
    address?: boolean;
    /** rename: the new name */
    new_name?: string | null;
    /** close_room, remove_line */
    room?: string | null;
    /** remove_line: its id */
    line?: string | null;
    /** void: the game's id */
    game?: string | null;
    /** close_report: its id */
    report?: string | null;
  }
  /** Ask for your games in progress (answered with ``games``): the signed-in account's seats, and the seats these resume tokens hold (a browser keeps one per room). Nothing changes. */
  interface MyGames {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "my_games";
    /** resume tokens from earlier welcomes */
    tokens?: string[];
  }
  interface Ping {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "ping";
  }
  interface PlayCard {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    /** the seq of the state this move answers (from the latest state); the server applies the move only at that seq, and answers an older one with 'stale' */
    seq: number;
    type?: "play";
    card: string;
  }
  /** Start the match again with a new deal. Against the computer it happens at once. */
  interface ProposeRestart {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "propose_restart";
    /** optional: the seq of the state this answers; if given, the server acts only at that seq and answers an older one with 'stale' (so a repeat cannot act twice) */
    seq?: number | null;
  }
  /** Keep your name on this server: make an account and sign in (a guest keeps their game). */
  interface Register {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "register";
    name: string;
    password: string;
    /** a bot account: a program plays it; marked as a bot everywhere, for ever */
    bot?: boolean;
  }
  /** After the match: ask for (or agree to) another with the same options. */
  interface Rematch {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "rematch";
    /** optional: the seq of the state this answers; if given, the server acts only at that seq and answers an older one with 'stale' (so a repeat cannot act twice) */
    seq?: number | null;
  }
  /** Report a player to the moderators, with a reason; from a table (``room``), a profile, or a chat line (``line``: its id, from the ``chat`` message). */
  interface Report {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "report";
    /** the player reported, as shown */
    name: string;
    reason: string;
    room?: string | null;
    game?: string | null;
    line?: string | null;
  }
  /** Give up the current game (the match goes on if it is played to more game points). */
  interface ResignGame {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    /** the seq of the state this move answers (from the latest state); the server applies the move only at that seq, and answers an older one with 'stale' */
    seq: number;
    type?: "resign";
  }
  /** How a room is set up: the match rules plus who may find and watch it. */
  interface RoomOptions {
    game?: GameOptions;
    /** unlisted: join only by code */
    private?: boolean;
    /** seconds a player may take per move; when it runs out the server moves for them (the easiest computer level). None: no timer */
    turn_timer?: number | null;
    /** with turn_timer: seconds each player may take beyond the per-move time, over the whole match (a bank). None: 180 in a rated room, else no bank */
    turn_bank?: number | null;
    /** whether others may watch */
    spectators?: boolean;
    /** a rated room: two signed-in people, automatic counting, a turn clock; the result changes both ratings */
    rated?: boolean;
    /** a duplicate match: this table, then a second one on the same deals with the seats swapped; scored by the difference in points (docs/tournaments.md) */
    duplicate?: boolean;
  }
  /** Seat the computer in your room's empty (or abandoned) seat. */
  interface SeatBot {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "seat_bot";
    /** a level from welcome.levels; None: strongest */
    level?: string | null;
  }
  /** Play a rated game: wait in the queue for an opponent of about your rating. */
  interface Seek {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "seek";
    /** one game, or best of three */
    best_of?: 1 | 3;
    /** never pair me with a bot account */
    people_only?: boolean;
    /** a duplicate match: two tables on the same deals, seats swapped */
    duplicate?: boolean;
  }
  /** Sign in with the name and password, or with a session token from an earlier ``account``. */
  interface SignIn {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "sign_in";
    name?: string | null;
    password?: string | null;
    session?: string | null;
  }
  /** End this session, or (``everywhere``) every session of the account. */
  interface SignOut {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "sign_out";
    everywhere?: boolean;
  }
  /** Watch a room's game with a spectator's view (no hidden cards). */
  interface Spectate {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "spectate";
    code: string;
  }
  /** Its maker (or a moderator) starts it now, or (``finish``) ends it: no new pairings. */
  interface StartTournament {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "start_tournament";
    tournament: string;
    finish?: boolean;
  }
  /** Muggins client-to-server message */
  type Message = Hello | CreateRoom | JoinRoom | ListRooms | Spectate | SeatBot | DiscardCards | PlayCard | CountPoints | CallMuggins | ChallengeCount | AcceptCount | ResignGame | ProposeRestart | AnswerRestart | Rematch | Claim | Chat | Leave | Ping | Seek | CancelSeek | Register | SignIn | SignOut | ChangePassword | DeleteAccount | GetProfile | GetHistory | GetLeaderboard | GetGame | Report | Block | Moderate | GetModeration | GetReview | CreateTournament | JoinTournament | LeaveTournament | StartTournament | ListTournaments | GetTournament | AskHint | MyGames;
}

declare namespace MugginsServer {
  /** Muggins mode: let the opponent's count stand as claimed. */
  interface Accept {
    type?: "accept";
  }
  /** You are signed in. ``session`` (secret) is set when a new session was made: keep it. */
  interface Account {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "account";
    /** the account id, public */
    account: string;
    name: string;
    /** secret; sign in with it later */
    session?: string | null;
    rating: RatingInfo;
    /** a bot account */
    bot?: boolean;
  }
  /** One account as a moderator sees it. */
  interface AccountItem {
    name: string;
    role: string | null;
    games: HistoryItem[];
    chat: KeptChatLine[];
    reports: ReportItem[];
    sanctions: SanctionItem[];
  }
  interface ActionsGameOver {
    type?: "game_over";
    outcome: Outcome;
    match_points: [number, number];
    match_over: boolean;
  }
  /** Points per completed deal by role and source; per hand and crib shown; expected points given away per reviewed deal against the expert's choices (None until a game is reviewed). */
  interface Averages {
    dealer_pegging: number;
    dealer_hand: number;
    dealer_crib: number;
    dealer_total: number;
    pone_pegging: number;
    pone_hand: number;
    pone_total: number;
    hand: number;
    crib: number;
    /** per reviewed deal, discards and play together */
    given_away?: number | null;
    /** per reviewed deal */
    given_away_discards?: number | null;
    /** per reviewed deal */
    given_away_play?: number | null;
  }
  /** A view without the parts that have not changed (see :class:`SeatView`). Sent in ``state`` frames with ``"brief": true``. It always carries ``seat``, ``phase``, ``turn``, ``waiting_for`` and ``legal``; every other part is left out when the step cannot have changed it: ``options``, ``commitment``, ``cut_for_deal`` and ``last_deal`` within a deal, and within a phase the parts that phase cannot change (:data:`PHASE_FIXED`). A client takes each part left out from its previous view (the latest one it completed): :func:`whole` does that, and :class:`shared.protocol.unpack.Unpacker` keeps the previous view. Which parts a parsed one carries is its ``model_fields_set``. */
  interface BriefView {
    seat: number | null;
    phase: "discard" | "play" | "show" | "game_over" | "match_over";
    /** left out when unchanged (see BriefView) */
    game_number?: number;
    /** left out when unchanged (see BriefView) */
    deal_number?: number;
    /** left out when unchanged (see BriefView) */
    dealer?: number;
    /** whose move it is; None while both may discard */
    turn: number | null;
    waiting_for: number[];
    /** left out when unchanged (see BriefView) */
    scores?: [number, number];
    /** back pegs: each score before its last gain; left out when unchanged (see BriefView) */
    previous_scores?: [number, number];
    /** left out when unchanged (see BriefView) */
    match_points?: [number, number];
    /** this seat's cards not yet played; left out when unchanged (see BriefView) */
    hand?: string[];
    /** what this seat laid away to the crib; left out when unchanged (see BriefView) */
    discards?: string[];
    /** cards each seat holds; left out when unchanged (see BriefView) */
    hand_counts?: [number, number];
    /** left out when unchanged (see BriefView) */
    discarded?: [boolean, boolean];
    /** left out when unchanged (see BriefView) */
    crib_count?: number;
    /** face up once the crib is shown; left out when unchanged (see BriefView) */
    crib?: string[] | null;
    /** left out when unchanged (see BriefView) */
    starter?: string | null;
    /** left out when unchanged (see BriefView) */
    count?: number;
    /** cards played since the count last restarted; left out when unchanged (see BriefView) */
    pile?: PlayedCard[];
    /** every card played this deal, in order; left out when unchanged (see BriefView) */
    played?: PlayedCard[];
    /** left out when unchanged (see BriefView) */
    said_go?: [boolean, boolean];
    /** left out when unchanged (see BriefView) */
    show?: ShowResult[];
    /** the moves that advance the game now, each a message to send as it is; resign is allowed whenever a game is on but never listed, so that a program choosing from legal never gives up by chance */
    legal: (Discard | Play | Count | Muggins | Challenge | Accept | Resign)[];
    /** the latest finished game of this match; left out when unchanged (see BriefView) */
    outcome?: Outcome | null;
    /** left out when unchanged (see BriefView) */
    games?: Outcome[];
    /** left out when unchanged (see BriefView) */
    match_winner?: number | null;
    /** left out when unchanged (see BriefView) */
    options?: GameOptions;
    /** the SHA-256 commitment to this deal's deck; left out when unchanged (see BriefView) */
    commitment?: string;
    /** left out when unchanged (see BriefView) */
    cut_for_deal?: [string, string][];
    /** left out when unchanged (see BriefView) */
    last_deal?: DealSummary | null;
  }
  interface CardPlayed {
    type?: "card_played";
    seat: number;
    card: string;
    count: number;
    points: number;
    parts: Points[];
    spoken: string;
    score: number;
  }
  /** Muggins mode: challenge an over-count; the owner is put back and you take the excess. */
  interface Challenge {
    type?: "challenge";
  }
  interface ChatLine {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "chat";
    /** the sender's name */
    sender: string;
    /** the sender's seat; None for a spectator */
    seat: number | null;
    text: string;
    /** the line's id (to report it) */
    line?: string | null;
  }
  /** Muggins mode: claim the points in your hand or crib (any number from 0 to 29). */
  interface Count {
    type?: "count";
    points: number;
  }
  /** Muggins mode: the opponent's answer to a claim, and the true total it is settled by. */
  interface CountAnswered {
    type?: "count_answered";
    /** who answered: the owner's opponent */
    seat: number;
    kind: "hand" | "crib";
    answer: "accept" | "muggins" | "challenge";
    claimed: number;
    total: number;
    /** whether the call was right; None for accept */
    right: boolean | null;
  }
  /** Muggins mode: the owner's claim for a hand or crib, before anyone is told its total. */
  interface CountClaimed {
    type?: "count_claimed";
    seat: number;
    kind: "hand" | "crib";
    claimed: number;
  }
  interface CountReset {
    type?: "count_reset";
    leader: number;
  }
  /** Both seats cut; the low card deals. Tied rounds are listed before the deciding one. */
  interface CutForDeal {
    type?: "cut_for_deal";
    rounds: [string, string][];
    dealer: number;
  }
  /** The points the seat gave away in one deal, by kind of decision. */
  interface DealLoss {
    game: number;
    deal: number;
    discards: number;
    play: number;
    counts: number;
  }
  /** The deck order and salt behind a finished deal's commitment. */
  interface DealReveal {
    deal_number: number;
    dealer: number;
    commitment: string;
    deck: string[];
    salt: string;
  }
  /** The deal is over: the deck order and salt behind the commitment. */
  interface DealRevealed {
    type?: "deal_revealed";
    deal_number: number;
    commitment: string;
    deck: string[];
    salt: string;
  }
  /** A new deal: each seat has six cards. Only the commitment to the deck is public. */
  interface DealStarted {
    type?: "deal_started";
    game_number: number;
    deal_number: number;
    dealer: number;
    commitment: string;
  }
  /** A finished deal as both players saw it at its end. */
  interface DealSummary {
    deal_number: number;
    dealer: number;
    starter: string | null;
    crib: string[];
    show: ShowResult[];
    reveal: DealReveal;
  }
  /** Lay two cards away to the dealer's crib. */
  interface Discard {
    type?: "discard";
    cards: [string, string];
  }
  interface Discarded {
    type?: "discarded";
    seat: number;
  }
  /** A duplicate match is over: both tables played on the same deals, seats swapped. Sent to the two players once both tables are over (never while the second is played, so no table hears of the other's cards before it has played them). */
  interface DuplicateResult {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "duplicate_result";
    /** each table's game id, to replay or review */
    games: [string, string];
    /** the first player (seat 0 at the first table), then the second */
    names: [string, string];
    /** which of names you are */
    you: number | null;
    /** the first player's points less the second's, both tables */
    margin: number;
    rated: boolean;
    /** 'You won by 14 points on the same cards' */
    text: string;
    /** each hand both tables played: what each player laid away and scored with it */
    hands: HandComparison[];
  }
  /** A refusal. Nothing changed. ``code`` is stable; ``message`` is a sentence for a person. */
  interface Error {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "error";
    code: "bad_json" | "bad_message" | "binary_frame" | "unsupported_protocol" | "hello_first" | "bad_name" | "already_welcomed" | "bad_token" | "no_room" | "not_in_room" | "not_seated" | "room_full" | "already_in_room" | "spectators_off" | "spectators_full" | "too_many_rooms" | "server_full" | "illegal" | "not_your_turn" | "no_seat_free" | "unknown_level" | "nothing_pending" | "not_over" | "too_early" | "rate_limited" | "stale" | "bad_credentials" | "name_taken" | "bad_password" | "not_signed_in" | "no_account" | "no_game" | "storage" | "unconfirmed" | "internal" | "banned" | "muted" | "not_allowed" | "no_report";
    message: string;
    /** 'stale': the seq the room is at now (its state was sent just before) */
    seq?: number | null;
  }
  /** Something that happened in the step a ``state`` follows, with the sentence to show. */
  interface EventLine {
    event: CutForDeal | DealStarted | Discarded | StarterCut | Scored | CardPlayed | Go | CountReset | HandShown | CountClaimed | CountAnswered | HandScored | DealRevealed | Resigned | ActionsGameOver;
    text: string;
  }
  /** One of your games: where it is, against whom, the score, and whether it waits for you. */
  interface GameInProgress {
    room: string;
    /** your seat */
    seat: number;
    /** None while the other seat is empty */
    opponent: string | null;
    /** the current game's scores, by seat */
    scores: [number, number];
    your_move: boolean;
    status: "waiting" | "playing" | "over";
    rated?: boolean;
  }
  /** How a match is played. */
  interface GameOptions {
    target?: 121 | 61;
    muggins?: boolean;
    /** game points: standard 1/2/3 (skunk, double skunk), acc 2/3/3, games 1 for any win (so match_to 2 is best of three) */
    scheme?: "standard" | "acc" | "games";
    /** game points that win the match */
    match_to?: number;
  }
  /** A finished match: its seed and log rebuild every deal with the rules engine. */
  interface GameRecord {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "game";
    game: string;
    /** who held each seat when the match began */
    names: [string, string];
    /** each time a seat changed hands (the computer taking over from a player who left), in order; the last holder of a seat is the one its record names */
    hand_overs?: HandOver[];
    options: GameOptions;
    /** hex; Match.replay(options, seed, actions) rebuilds it */
    seed: string;
    actions: LoggedAction[];
    started: number;
    finished: number | null;
    result: ("won" | "restarted" | "abandoned") | null;
    winner: number | null;
    /** when asked for: the match replayed by the server, the opening, then one step per action */
    steps?: ReplayStep[];
  }
  /** One seat's decisions in a finished match, graded by the expert. */
  interface GameReview {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "game_review";
    game: string;
    seat: number;
    /** who held each seat at the end */
    names: [string, string];
    target: number;
    decisions: ReviewedDecision[];
    /** indexes in decisions of the costliest, worst first */
    worst: number[];
    deals: DealLoss[];
    win_chance: WinPoint[];
    /** points given away in the match: discards, play, counts */
    given_away: [number, number, number];
    /** decisions the same as the expert's */
    agreed: number;
  }
  /** The answer to ``my_games``: your games in progress, the latest first. */
  interface Games {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "games";
    games: GameInProgress[];
  }
  interface Go {
    type?: "go";
    seat: number;
  }
  /** One hand of one deal, as each player played it at their table. */
  interface HandComparison {
    game_number: number;
    deal_number: number;
    /** the hand was the dealer's */
    dealer: boolean;
    /** the six cards dealt */
    cards: string[];
    /** what each player (the match's first, then second) laid away from them */
    discards: [string[], string[]];
    /** what each player scored in that deal with them */
    points: [number, number];
  }
  interface HandOver {
    seat: number;
    /** the index of the first action of the match made by the new holder */
    at: number;
    /** who held the seat until then */
    before: string;
    /** who holds it from then on */
    after: string;
  }
  /** The true breakdown of a shown hand or crib, once it is settled. */
  interface HandScored {
    type?: "hand_scored";
    seat: number;
    kind: "hand" | "crib";
    total: number;
    parts: Points[];
    spoken: string;
  }
  /** A hand or the crib is laid face up in the show (and, unless counting by hand, scored). */
  interface HandShown {
    type?: "hand_shown";
    seat: number;
    kind: "hand" | "crib";
    cards: [string, string, string, string];
    starter: string;
  }
  /** The answer to ``hint``: the coach's move (one of ``view.legal``) and why. */
  interface Hint {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "hint";
    move: Discard | Play | Count | Muggins | Challenge | Accept | Resign;
    /** the reason, in a sentence or two */
    text: string;
  }
  interface History {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "history";
    name: string;
    games: HistoryItem[];
  }
  interface HistoryItem {
    /** the match id: ask for it with a game message */
    game: string;
    /** Unix time */
    finished: number;
    seat: number;
    opponent: string;
    opponent_account: string | null;
    result: "won" | "lost" | "drawn" | "abandoned";
    rated: boolean;
    /** (this player, the opponent) */
    match_points: [number, number];
    rating_before: number | null;
    rating_after: number | null;
  }
  interface KeptChatLine {
    id: string;
    room: string;
    at: number;
    sender: string;
    text: string;
  }
  interface LeaderEntry {
    rank: number;
    name: string;
    account: string;
    rating: RatingInfo;
    counts: Record<string, unknown>;
    /** a bot account */
    bot?: boolean;
  }
  interface Leaderboard {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "leaderboard";
    /** established ratings, best first */
    entries: LeaderEntry[];
  }
  /** The answer to ``leave``: you are in no room now. */
  interface Left {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "left";
    code: string;
  }
  interface LogItem {
    at: number;
    by: string;
    action: string;
    target: string;
    reason: string;
  }
  interface LoggedAction {
    seat: number;
    action: Discard | Play | Count | Muggins | Challenge | Accept | Resign;
  }
  /** The answer to ``report``, ``block`` and ``moderate``: what was done, in a sentence. */
  interface Moderated {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "moderated";
    action: string;
    text: string;
  }
  interface ModerationView {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "moderation";
    /** open reports, oldest first */
    reports: ReportItem[];
    /** bans and mutes in force, newest first */
    sanctions: SanctionItem[];
    /** rooms live on this node */
    rooms: RoomItem[];
    /** players online on this node */
    online: string[];
    /** the moderation log, newest first */
    log: LogItem[];
    account?: AccountItem | null;
  }
  /** Muggins mode: call "Muggins!" on a short count and take the points it missed. */
  interface Muggins {
    type?: "muggins";
  }
  /** A sentence about the room for the people in it (a disconnect, a return, a proposal). */
  interface Notice {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "notice";
    code: "joined" | "left" | "disconnected" | "returned" | "claimable" | "claimed" | "bot_seated" | "restart_proposed" | "restart_declined" | "restarted" | "rematch_wanted" | "timeout" | "replaced" | "shutdown" | "rating" | "duplicate";
    text: string;
  }
  /** How a game ended. */
  interface Outcome {
    game_number: number;
    winner: number;
    /** the final scores by seat; the winner's stops at the game hole (121 or 61) */
    scores: [number, number];
    /** the loser ended under the skunk line but not under the double-skunk line (exclusive with double_skunk: a double skunk has skunk false) */
    skunk: boolean;
    /** the loser ended under the double-skunk line */
    double_skunk: boolean;
    game_points: number;
    reason: "score" | "resign";
  }
  /** Play a card during the play. */
  interface Play {
    type?: "play";
    card: string;
  }
  interface PlayedCard {
    seat: number;
    card: string;
  }
  /** A scoring combination as it travels: its kind, its points and its cards. */
  interface Points {
    kind: "fifteen" | "pair" | "run" | "flush" | "nobs" | "thirty_one" | "go" | "last_card" | "heels";
    points: number;
    cards?: string[];
  }
  interface Pong {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "pong";
  }
  interface Profile {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "profile";
    account: string;
    name: string;
    rating: RatingInfo;
    /** games, wins, losses, skunks_given, ... (docs) */
    counts: Record<string, unknown>;
    averages: Averages;
    /** a bot account */
    bot?: boolean;
  }
  interface RatingInfo {
    /** Glicko-2 rating on the Glicko scale (a beginner: 1500) */
    rating: number;
    /** the rating deviation (RD), one standard deviation; provisional while above 110 */
    deviation: number;
    volatility: number;
    provisional: boolean;
    /** rated matches played */
    games: number;
  }
  /** The table after one step of a finished match, every card face up (the match is over). */
  interface ReplayStep {
    /** who acted; null for the opening (cut and first deal) */
    seat: number | null;
    action: (Discard | Play | Count | Muggins | Challenge | Accept | Resign) | null;
    /** the sentences of the step's events, in order */
    texts: string[];
    game_number: number;
    deal_number: number;
    dealer: number;
    scores: [number, number];
    /** each seat's cards not yet played */
    hands: [string[], string[]];
    /** the cards each seat laid away to the crib */
    discards: [string[], string[]];
    starter: string | null;
    count: number;
    pile: PlayedCard[];
    show: ShowResult[];
  }
  interface ReportItem {
    id: string;
    at: number;
    by: string;
    name: string;
    reason: string;
    room: string | null;
    game: string | null;
    line: KeptChatLine | null;
    /** the room's kept chat around the report */
    chat: KeptChatLine[];
  }
  /** Give up the game. */
  interface Resign {
    type?: "resign";
  }
  interface Resigned {
    type?: "resigned";
    seat: number;
  }
  /** One decision of the reviewed seat. */
  interface ReviewedDecision {
    game: number;
    deal: number;
    kind: "discard" | "play" | "count";
    /** the seat's score, then the opponent's, then */
    scores: [number, number];
    /** what the seat did: the cards laid away, the card, the count */
    chosen: string;
    /** what the expert would have done */
    best: string;
    /** expected points given away against the expert's move */
    loss: number;
    /** the same as a share of the chance to win the game */
    win_loss: number;
    /** a sentence on a big loss, else empty */
    explanation: string;
  }
  /** A room's public facts. Sent on entering a room and whenever they change. */
  interface Room {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "room";
    code: string;
    options: RoomOptions;
    seats: [SeatInfo, SeatInfo];
    spectators: number;
    /** your seat; None when spectating */
    you: number | null;
    /** waiting for a second seat, in a match, or the match is over */
    status: "waiting" | "playing" | "over";
    /** 1, then one more after each restart or rematch */
    match_number: number;
    restart_proposed_by?: number | null;
    rematch_wanted?: [boolean, boolean];
    /** a room with a time bank (rated, or options.turn_bank): seconds left in each seat's bank as of its last move, beyond the per-move limit (options.turn_timer) */
    bank?: [number, number] | null;
    /** a duplicate match's table: the second deals the first's cards, the seats swapped */
    duplicate_table?: (1 | 2) | null;
  }
  interface RoomItem {
    code: string;
    names: [string, string];
    status: string;
    rated: boolean;
  }
  /** How a room is set up: the match rules plus who may find and watch it. */
  interface RoomOptions {
    game?: GameOptions;
    /** unlisted: join only by code */
    private?: boolean;
    /** seconds a player may take per move; when it runs out the server moves for them (the easiest computer level). None: no timer */
    turn_timer?: number | null;
    /** with turn_timer: seconds each player may take beyond the per-move time, over the whole match (a bank). None: 180 in a rated room, else no bank */
    turn_bank?: number | null;
    /** whether others may watch */
    spectators?: boolean;
    /** a rated room: two signed-in people, automatic counting, a turn clock; the result changes both ratings */
    rated?: boolean;
    /** a duplicate match: this table, then a second one on the same deals with the seats swapped; scored by the difference in points (docs/tournaments.md) */
    duplicate?: boolean;
  }
  interface RoomSummary {
    code: string;
    names: [string | null, string | null];
    options: RoomOptions;
    status: "waiting" | "playing" | "over";
    open_seat: boolean;
    spectators: number;
  }
  /** The answer to ``list_rooms``: public rooms, with an open seat first. */
  interface Rooms {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "rooms";
    rooms: RoomSummary[];
    /** send as list_rooms.after for the next page; None: no more */
    next?: string | null;
    /** listed rooms in all, on every page */
    total?: number;
  }
  interface SanctionItem {
    kind: "ban" | "mute";
    name: string;
    reason: string;
    by: string;
    at: number;
    until: number | null;
    address: boolean;
  }
  /** You are banned or muted: why and until when (Unix time; none: for good). */
  interface Sanctioned {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "sanctioned";
    kind: "ban" | "mute";
    reason: string;
    until: number | null;
    text: string;
  }
  /** Points pegged outside a card play: heels, go, last card, a count, and in muggins mode the points taken for a short count or an over-count, or the penalty for a wrong call. */
  interface Scored {
    type?: "scored";
    seat: number;
    reason: "heels" | "go" | "last_card" | "hand" | "crib" | "muggins" | "challenge" | "wrong_call";
    points: number;
    parts?: Points[];
    score: number;
  }
  /** A waited-for seat's time left as a ``state`` was sent: count down from its arrival. */
  interface SeatClock {
    /** seconds left of this move's own time (0 once spent) */
    move: number;
    /** seconds left in the seat's bank once the move's own time is spent (0: no bank, or it is spent) */
    bank: number;
  }
  interface SeatInfo {
    seat: number;
    /** None while the seat is empty */
    name: string | null;
    /** the player id of a person */
    player?: string | null;
    kind: "empty" | "human" | "bot";
    /** the computer's level */
    level?: string | null;
    connected: boolean;
    /** a disconnected person: seconds until the opponent may claim (0: now) */
    claimable_in?: number | null;
  }
  /** Everything ``seat`` may see; ``seat`` is None for a spectator. */
  interface SeatView {
    seat: number | null;
    phase: "discard" | "play" | "show" | "game_over" | "match_over";
    game_number: number;
    deal_number: number;
    dealer: number;
    /** whose move it is; None while both may discard */
    turn: number | null;
    waiting_for: number[];
    scores: [number, number];
    /** back pegs: each score before its last gain */
    previous_scores: [number, number];
    match_points: [number, number];
    /** this seat's cards not yet played */
    hand: string[];
    /** what this seat laid away to the crib */
    discards: string[];
    /** cards each seat holds */
    hand_counts: [number, number];
    discarded: [boolean, boolean];
    crib_count: number;
    /** face up once the crib is shown */
    crib: string[] | null;
    starter: string | null;
    count: number;
    /** cards played since the count last restarted */
    pile: PlayedCard[];
    /** every card played this deal, in order */
    played: PlayedCard[];
    said_go: [boolean, boolean];
    show: ShowResult[];
    /** the moves that advance the game now, each a message to send as it is; resign is allowed whenever a game is on but never listed, so that a program choosing from legal never gives up by chance */
    legal: (Discard | Play | Count | Muggins | Challenge | Accept | Resign)[];
    /** the latest finished game of this match */
    outcome: Outcome | null;
    games: Outcome[];
    match_winner: number | null;
    options: GameOptions;
    /** the SHA-256 commitment to this deal's deck */
    commitment: string;
    cut_for_deal: [string, string][];
    last_deal: DealSummary | null;
  }
  /** Whether you are in the rated queue. When an opponent is found you get a ``room``. */
  interface Seeking {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "seeking";
    active: boolean;
    best_of?: 1 | 3;
    people_only?: boolean;
    duplicate?: boolean;
    rating?: number | null;
    /** rating points accepted now; widens by 10 a second */
    range?: number | null;
  }
  /** A game of the match ended in the step a ``state`` follows. */
  interface ServerGameOver {
    outcome: Outcome;
    /** the winner's name */
    winner: string;
    match_points: [number, number];
    match_over: boolean;
    text: string;
  }
  /** A hand or crib laid face up in the show. ``total``, ``parts`` and ``spoken`` are empty until the count is settled: at once when counting is automatic; in muggins mode only once the owner's claim has been answered, so nothing but the cards themselves tells anyone the total before then. */
  interface ShowResult {
    seat: number;
    kind: "hand" | "crib";
    cards: string[];
    starter: string;
    total?: number | null;
    parts?: Points[];
    spoken?: string;
    /** muggins mode: the owner's claim, shown as soon as it is made */
    claimed?: number | null;
    /** muggins mode: the opponent's answer, once given */
    answer?: ("accept" | "muggins" | "challenge") | null;
    /** points the opponent took: a short count's missed points (muggins) or an over-count's excess (a challenge) */
    taken?: number;
    /** points the owner got for a wrong call */
    penalty?: number;
  }
  interface SignedOut {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "signed_out";
    /** how many sessions ended */
    sessions: number;
    /** the account was deleted */
    deleted?: boolean;
  }
  interface Standing {
    rank: number;
    /** as shown: a bot account's carries [bot] */
    name: string;
    points: number;
    games: number;
    wins: number;
    draws: number;
    losses: number;
    /** an arena: wins in a row (after 2, a win counts double) */
    streak: number;
    /** a Swiss: the tiebreak */
    buchholz?: number | null;
    /** in the tournament now (an arena: not withdrawn) */
    active: boolean;
  }
  interface StarterCut {
    type?: "starter_cut";
    card: string;
    heels: boolean;
  }
  /** The game as this connection may see it after action number ``seq`` of the room, with what happened on the way there. ``brief`` states leave out of the view the parts the step cannot have changed (see :class:`~shared.view.BriefView`, :func:`shared.protocol.brief.left_out_of` and docs/protocol.md): a receiver takes them from its previous view. A brief state made by the server may hold the whole view object: :func:`encode` leaves those parts out of its text, and a parsed one holds a BriefView. */
  interface State {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "state";
    /** rises with every accepted action, restart and rematch */
    seq: number;
    /** the view leaves out the parts this step cannot have changed (options, commitment, cut_for_deal and last_deal within a deal; within a phase, the parts the phase cannot change): take each part left out from the previous view */
    brief?: boolean;
    view: SeatView | BriefView;
    /** what happened since the previous seq, in order */
    events?: EventLine[];
    /** a game ended in this step */
    game_over?: ServerGameOver | null;
    /** a room with a turn timer: each seat's time left as this state was sent (null for a seat not waited for); its move time runs from when the state first waited for it, so both players count down the same figures. null: no clock */
    clock?: ([SeatClock | null, SeatClock | null]) | null;
  }
  /** The current match so far, sent to whoever enters or comes back to a room (after its ``state``): every step's sentence and event since the match began, and the latest chat. */
  interface Story {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "story";
    room: string;
    match_number: number;
    lines: EventLine[];
    chat?: ChatLine[];
  }
  interface TournamentGame {
    /** a game id (ABCDEF-1), to replay or review once finished */
    game: string;
    names: [string, string];
    round?: number | null;
    /** the first player's score: 1, 0.5 or 0; None while it is being played */
    result: number | null;
  }
  /** A tournament's facts, standings and games: the answer to a request about it, and sent again to everyone in it whenever its standings change. An answer can come after the news of a later change (in a cluster the director may change it on another node meanwhile): keep the info with the highest ``revision``, not the last to come. */
  interface TournamentInfo {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "tournament";
    summary: TournamentSummary;
    standings: Standing[];
    games: TournamentGame[];
    /** you are in it (and have not left it) */
    joined?: boolean;
    /** rises with every change of the tournament (from 1): draw an info only if its revision is not below the last one drawn of that tournament (0: not numbered) */
    revision?: number;
  }
  interface TournamentSummary {
    tournament: string;
    name: string;
    kind: "arena" | "swiss";
    status: "waiting" | "playing" | "finished";
    duplicate: boolean;
    bots: boolean;
    players: number;
    /** a Swiss: rounds in all */
    rounds?: number | null;
    /** a Swiss: the round being played (0: none yet) */
    round?: number;
    /** an arena that is playing: seconds until it ends */
    ends_in?: number | null;
  }
  /** The answer to ``list_tournaments``: those waiting or playing first, then finished. */
  interface Tournaments {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "tournaments";
    tournaments: TournamentSummary[];
  }
  /** The answer to ``hello``. Keep ``token``: it is the only way back to your seat. */
  interface Welcome {
    /** chosen by the client; the answer to this message carries it back */
    id?: number | string | null;
    type?: "welcome";
    /** your player id, public */
    player: string;
    /** your name as others see it, after sanitising */
    name: string;
    /** secret; send it in a later hello to resume */
    token: string;
    protocol: number;
    /** server software version */
    server: string;
    /** computer levels, weakest first */
    levels: string[];
    /** each computer level's strength on the players' rating scale (standard = 1500, where new accounts start) */
    level_ratings?: Record<string, unknown>;
    /** whether the token put you back where you were */
    resumed: boolean;
    /** the room you are back in, if any */
    room?: string | null;
    /** the address players reach this server at (https://host[:port]), for links and commands a client shows; None: the address the client used */
    public_url?: string | null;
  }
  /** The seat's chance to win the game at the start of a deal (or at the game's end). */
  interface WinPoint {
    game: number;
    /** 0 for the end of the game */
    deal: number;
    /** the seat's score, then the opponent's */
    scores: [number, number];
    /** whether the seat deals this deal */
    dealer: boolean;
    /** the chance to win the game, 0 to 1 */
    chance: number;
  }
  /** Muggins server-to-client message */
  type Message = Welcome | Room | Rooms | State | Error | ChatLine | Notice | Left | Pong | Hint | Games | Story | DuplicateResult | Tournaments | TournamentInfo | Seeking | Account | SignedOut | Profile | History | Leaderboard | GameRecord | Moderated | Sanctioned | ModerationView | GameReview;
}
