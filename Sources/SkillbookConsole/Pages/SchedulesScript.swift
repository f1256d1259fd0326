/// `schedules.js`: every schedule entry with its next fires (local and UTC), its last fire and that
/// run's status, and the scheduled files with errors; whether this process fires them.
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
        h("thead", {}, h("tr", {}, ["Playbook", "Entry", "Next fires (local · UTC)", "Last fire"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, answer.schedules.map((s) => h("tr", { "data-playbook": s.playbook, "data-entry": s.entry },
          h("td", {}, h("a", { href: "/playbooks/" + encodeURIComponent(s.playbook) }, s.playbook)),
          h("td", {}, h("span.mono", {}, s.trigger), h("div.muted", {}, s.timezone)),
          h("td", {}, s.next.length ? h("ul.fires", {}, s.next.map((f) => h("li", {}, h("span.mono", {}, f.local), h("span.muted.mono", {}, " · " + f.utc))))
            : h("span.muted", {}, "none")),
          h("td", {}, s.last
            ? [statusBadge(s.last.status), " ", h("a.mono", { href: "/runs/" + encodeURIComponent(s.last.run) }, s.last.run.slice(0, 8)),
               h("div.muted.mono", {}, s.last.scheduled_at || s.last.started)]
            : h("span.muted", {}, "never")))))));
    }
    """#
}
