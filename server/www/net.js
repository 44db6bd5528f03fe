// @ts-check
// The WebSocket to the server this page came from: hello (with the resume token), reconnecting
// with growing pauses after a drop or a server restart, and one message per text frame. Each
// connection names the page's room in its URL (/?room=CODE) so a cluster's proxy sends it to
// the node of that room; the front page's connection names none. A node that does not own the
// room closes the socket with 4001 and the owner's address as the reason: the link connects
// there at once (a few in a row at most), and if that fails, back here with `stay=1`.

/** Owners followed in a row (close code 4001) before the link waits like after any drop. */
const MAX_MOVES = 3;
/** The close code of a connection for a room another node owns (the reason: where it lives). */
const MOVED = 4001;

/** @typedef {"connecting" | "connected" | "reconnecting" | "replaced"} LinkState */

export class Link {
  /**
   * @param {(msg: MugginsServer.Message) => void} onMessage every server message
   * @param {(state: LinkState) => void} onState connection changes
   * @param {() => MugginsClient.Hello} hello the hello to send on each (re)connection
   * @param {() => string} room the room this page is for ("" on the front page)
   */
  constructor(onMessage, onState, hello, room) {
    this.onMessage = onMessage;
    this.onState = onState;
    this.hello = hello;
    this.room = room;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.pause = 200;
    this.nextId = 1;
    /** @type {Map<number, string>} the latest messages sent, by id (to send again when unconfirmed) */
    this.sent = new Map();
    /** @type {LinkState} */
    this.state = "connecting";
    /** @type {number | undefined} */
    this.timer = undefined;
    /** Where the last close sent this link (the room's owner), for the next connection. */
    this.movedTo = "";
    this.moves = 0;
    /** The owner could not be reached: ask this page's server to serve the room itself. */
    this.stay = false;
  }

  /** The address to connect to: the owner a node sent us to, else this page's own server,
   * naming the room; `follow=1` tells a cluster node this page follows 4001. */
  url() {
    const room = this.room();
    let base = this.movedTo;
    if (!base) {
      const scheme = location.protocol === "https:" ? "wss:" : "ws:";
      base = `${scheme}//${location.host}/`;
    }
    const url = new URL(base);
    for (const key of ["room", "stay", "follow"]) url.searchParams.delete(key);
    if (room) {
      url.searchParams.set("room", room);
      if (this.stay && !this.movedTo) url.searchParams.set("stay", "1");
      url.searchParams.set("follow", "1");
    }
    return url.href;
  }

  open() {
    const sentOn = this.movedTo;
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      // An address the page may not open (refused by its security policy): serve it here.
      this.movedTo = "";
      this.stay = Boolean(sentOn);
      ws = new WebSocket(this.url());
    }
    this.movedTo = "";
    let served = false;
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.pause = 200;
      this.send(this.hello());
    });
    ws.addEventListener("message", (event) => {
      let msg;
      try {
        msg = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (msg.type === "welcome") {
        served = true;
        this.moves = 0;
        this.setState("connected");
      }
      this.onMessage(/** @type {MugginsServer.Message} */ (msg));
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (event.code === 4000) {
        this.setState("replaced");
        return;
      }
      const reason = String(event.reason || "");
      // Never from wss: to a plain ws: address, where the token would travel in the clear.
      const allowed = ws.url.startsWith("wss:") ? /^wss:\/\// : /^wss?:\/\//;
      if (event.code === MOVED && allowed.test(reason) && this.moves < MAX_MOVES) {
        // Sent on to the node that owns the room: go there at once, with the same token.
        this.moves += 1;
        this.movedTo = reason;
        this.open();
        return;
      }
      // Sent on and not welcomed there (or bounced too often): this page's server serves us.
      this.stay = (Boolean(sentOn) && !served) || event.code === MOVED;
      this.moves = 0;
      this.setState("reconnecting");
      this.timer = window.setTimeout(() => this.open(), this.pause);
      this.pause = Math.min(this.pause * 2, 5000);
    });
  }

  /** Leaving the page (pagehide): close the socket, so the server starts the grace period at
   * once and the opponent sees it, and the page may sit in the back/forward cache. */
  sleep() {
    const old = this.ws;
    this.ws = null;
    window.clearTimeout(this.timer);
    if (old) old.close(1000, "page hidden");
    this.setState("connecting");
  }

  /** Back on the page (pageshow from the back/forward cache): connect and resume. */
  wake() {
    if (this.ws || this.state === "replaced") return;
    this.open();
  }

  /** Start again on a new connection (a new hello), e.g. under a new name. */
  restart() {
    const old = this.ws;
    this.ws = null;
    if (old) old.close(1000, "new hello");
    window.clearTimeout(this.timer);
    this.setState("connecting");
    this.open();
  }

  /** @param {LinkState} state */
  setState(state) {
    if (this.state === state) return;
    this.state = state;
    this.onState(state);
  }

  /**
   * Send one message; returns its id, or null when the link is down.
   * @param {MugginsClient.Message} message
   * @returns {number | null}
   */
  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return null;
    const id = this.nextId++;
    const text = JSON.stringify({ ...message, id });
    this.sent.set(id, text);
    if (this.sent.size > 32) this.sent.delete(this.sent.keys().next().value ?? id);
    this.ws.send(text);
    return id;
  }

  /**
   * Send a message again exactly as it was (same id and seq): the server answers a retry once
   * and never applies a move twice. Returns false when it is no longer known or the link is down.
   * @param {number} id
   */
  resend(id) {
    const text = this.sent.get(id);
    if (text === undefined || !this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(text);
    return true;
  }
}
