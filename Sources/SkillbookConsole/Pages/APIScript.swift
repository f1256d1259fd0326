/// `api.js`: the one way the pages read and change anything: `/api/v1/…` with the session's
/// CSRF token on every POST, and server-sent events for live updates.
enum APIScript {
    static let text = #"""
    let csrf = null;

    async function session() {
      if (csrf) return csrf;
      const response = await fetch("/api/v1/session", { credentials: "same-origin" });
      if (!response.ok) throw new APIError(response.status, (await safeJSON(response)).error || "not logged in");
      csrf = (await response.json()).csrf;
      return csrf;
    }

    export class APIError extends Error {
      constructor(status, message, body = {}) {
        super(message);
        this.status = status;
        this.body = body;
      }
    }

    async function safeJSON(response) {
      try { return await response.json(); } catch { return {}; }
    }

    export async function get(path) {
      const response = await fetch("/api/v1/" + path, { credentials: "same-origin", headers: { Accept: "application/json" } });
      const body = await safeJSON(response);
      if (!response.ok) throw new APIError(response.status, body.error || response.statusText, body);
      return body;
    }

    export async function post(path, payload) {
      const token = await session();
      const response = await fetch("/api/v1/" + path, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": token, Accept: "application/json" },
        body: JSON.stringify(payload),
      });
      const body = await safeJSON(response);
      if (!response.ok) throw new APIError(response.status, body.error || response.statusText, body);
      return body;
    }

    // Follows run events (of one run, or of all when run is empty); returns a function that stops.
    // onOpen is called each time the stream (re)opens: read the state again then, so nothing that
    // happened before it opened is missed.
    export function events(run, onEvent, onOpen = () => {}) {
      const source = new EventSource("/api/v1/events" + (run ? "?run=" + encodeURIComponent(run) : ""));
      const live = document.getElementById("live");
      source.addEventListener("open", () => { if (live) live.textContent = "● live"; onOpen(); });
      source.addEventListener("error", () => { if (live) live.textContent = "○ reconnecting"; });
      source.addEventListener("run", (message) => {
        try { onEvent(JSON.parse(message.data)); } catch (error) { console.error(error); }
      });
      return () => { source.close(); if (live) live.textContent = ""; };
    }

    export { session };
    """#
}
