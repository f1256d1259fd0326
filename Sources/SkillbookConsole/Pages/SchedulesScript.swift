/// `schedules.js`: every schedule entry with its next fires (local and UTC), its last fire and that
/// run's status, the fires it did not start lately (missed or skipped, per reason, the newest
/// listed), and the scheduled files with errors; whether this process fires them.
enum SchedulesScript {
    static let text = #"""
    import { h, statusBadge } from "/assets/dom.js";
    import { get } from "/assets/api.js";

    export async function renderSchedules(main) {
      const answer = await get("schedules");
      main.append(h("h1", {}, "Schedules"),
        h("p.muted", {}, answer.fired_here
          ? "This console fires them (skillbook serve --schedules)."
          : "Fired by 'skillbook daemon', 'skillbook serve --schedules' or 'skillbook schedule tick' — not by this console."));
      if (answer.broken.length) {
        main.append(h("p", {}, "Files with errors (a schedule in them is not read until they are fixed):"),
          h("ul.diagnostics", {}, answer.broken.map((b) => h("li.d-error", {}, b.message))));
      }
      if (answer.schedules.length === 0) { main.append(h("p.muted", {}, "No playbook of this workspace has a schedule.")); return; }
      main.append(h("table.schedules", {},
        h("thead", {}, h("tr", {}, ["Playbook", "Entry", "Next fires (local · UTC)", "Last fire", "Missed or skipped (7 days)"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, answer.schedules.map((s) => h("tr", { "data-playbook": s.playbook, "data-entry": s.entry },
          h("td", {}, h("a", { href: "/playbooks/" + encodeURIComponent(s.playbook) }, s.playbook)),
          h("td", {}, h("span.mono", {}, s.trigger), h("div.muted", {}, s.timezone)),
          h("td", {}, s.next.length ? h("ul.fires", {}, s.next.map((f) => h("li", {}, h("span.mono", {}, f.local), h("span.muted.mono", {}, " · " + f.utc))))
            : h("span.muted", {}, "none")),
          h("td", {}, s.last
            ? [statusBadge(s.last.status), " ", h("a.mono", { href: "/runs/" + encodeURIComponent(s.last.run) }, s.last.run.slice(0, 8)),
               h("div.muted.mono", {}, s.last.scheduled_at || s.last.started)]
            : h("span.muted", {}, "never")),
          h("td.misses", {}, misses(s)))))));
    }

    // The fires of an entry not started lately: a count per reason, then the newest of them.
    const reasons = { overlap: "skipped: the previous run still ran", catch_up: "missed: catch_up", window: "missed: older than catch_up_window" };
    function misses(s) {
      if (!s.missed) return h("span.muted", {}, "none");
      const counts = Object.entries(s.missed.reasons).map(([reason, n]) => h("li", {}, n + " " + (reasons[reason] || reason)));
      return [
        h("strong.d-warning", {}, s.missed.count + (s.missed.count === 1 ? " fire" : " fires") + " not started"),
        h("ul.fires", {}, counts),
        h("ul.fires.recent", { "aria-label": "newest not started" }, s.misses.map((m) => h("li", { "data-outcome": m.outcome },
          h("span.badge", {}, m.outcome), " ", h("span.mono", {}, m.scheduled_at),
          m.through ? h("span.muted.mono", {}, " … " + m.through + " (" + m.count + ")") : null)))];
    }
    """#
}
