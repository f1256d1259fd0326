/// `runs.js`: the run list (filters, paging, live), and per playbook a strip of its last 20 outcomes.
enum RunsScript {
    static let text = #"""
    import { h, clear, statusBadge, time, duration } from "/assets/dom.js";
    import { get, events } from "/assets/api.js";

    const STATUSES = ["", "running", "succeeded", "succeeded_with_errors", "failed", "rolled_back", "rollback_incomplete", "interrupted", "queued"];

    export async function renderRuns(main) {
      const query = new URLSearchParams(location.search);
      const playbooks = (await get("playbooks")).playbooks;
      const playbookSelect = h("select", { id: "filter-playbook", name: "playbook" },
        h("option", { value: "" }, "all playbooks"),
        playbooks.map((p) => h("option", { value: p.name, selected: p.name === query.get("playbook") }, p.name)));
      const statusSelect = h("select", { id: "filter-status", name: "status" },
        STATUSES.map((s) => h("option", { value: s, selected: s === (query.get("status") || "") }, s ? s.replaceAll("_", " ") : "any status")));
      const strips = h("section.strips", { "aria-label": "Recent outcomes by playbook" });
      const body = h("tbody");
      const more = h("button", { type: "button", hidden: true }, "Load more");
      const table = h("table.runs", {},
        h("caption.visually-hidden", {}, "Runs, newest first"),
        h("thead", {}, h("tr", {}, ["Status", "Playbook", "Run", "Trigger", "Started", "Duration"].map((t) => h("th", { scope: "col" }, t)))),
        body);
      main.append(
        h("h1", {}, "Runs"),
        h("h2.visually-hidden", {}, "Last 20 outcomes of each playbook"),
        strips,
        h("form.filters", { role: "search" },
          h("label", {}, "Playbook ", playbookSelect),
          h("label", {}, "Status ", statusSelect)),
        table, more);

      let cursor = null;
      async function load(reset) {
        const params = new URLSearchParams();
        if (playbookSelect.value) params.set("playbook", playbookSelect.value);
        if (statusSelect.value) params.set("status", statusSelect.value);
        if (!reset && cursor) params.set("cursor", cursor);
        const page = await get("runs?" + params);
        if (reset) clear(body);
        for (const run of page.runs) body.appendChild(row(run));
        if (reset && page.runs.length === 0) body.appendChild(h("tr", {}, h("td.muted", { colspan: 6 }, "No runs yet. Start one from a playbook's page.")));
        cursor = page.next_cursor;
        more.hidden = !cursor;
      }
      async function loadStrips() {
        const data = (await get("runs/strips")).strips;
        clear(strips);
        for (const [name, runs] of Object.entries(data)) {
          // Oldest on the left; the empty slots before them keep every strip 20 wide.
          const cells = runs.slice().reverse().map((r) => h(`a.cell.s-${r.status}`, { role: "listitem", href: "/runs/" + encodeURIComponent(r.id), title: `${r.status} · ${r.id.slice(0, 8)}` },
            h("span.visually-hidden", {}, r.status)));
          const empty = Array.from({ length: 20 - runs.length }, () => h("span.cell.empty", { "aria-hidden": "true" }));
          strips.appendChild(h("div.strip", {},
            h("a.strip-name", { href: "/runs?playbook=" + encodeURIComponent(name) }, name),
            h("span.cells", { role: "list", "aria-label": runs.length ? `last ${runs.length} outcomes of ${name}, oldest first` : `no runs of ${name}` }, empty, cells)));
        }
      }
      function applyFilters() {
        const params = new URLSearchParams();
        if (playbookSelect.value) params.set("playbook", playbookSelect.value);
        if (statusSelect.value) params.set("status", statusSelect.value);
        history.replaceState(null, "", "/runs" + (params.toString() ? "?" + params : ""));
        load(true);
      }
      playbookSelect.addEventListener("change", applyFilters);
      statusSelect.addEventListener("change", applyFilters);
      more.addEventListener("click", () => load(false));
      await Promise.all([load(true), loadStrips()]);

      // Live: any event reloads the first page and the strips (at most every half second).
      let pending = null;
      const refresh = () => {
        if (pending) return;
        pending = setTimeout(async () => { pending = null; await Promise.all([load(true), loadStrips()]); }, 500);
      };
      const stop = events("", refresh, refresh);
      return () => { stop(); if (pending) clearTimeout(pending); };
    }

    function row(run) {
      return h("tr", { "data-run": run.id, "data-status": run.status },
        h("td", {}, statusBadge(run.status)),
        h("td", {}, h("a", { href: "/playbooks/" + encodeURIComponent(run.playbook) }, run.playbook)),
        h("td", {}, h("a.mono", { href: "/runs/" + encodeURIComponent(run.id) }, run.id.slice(0, 8))),
        h("td", {}, run.trigger),
        h("td", {}, h("time", { datetime: run.started }, time(run.started))),
        h("td.num", {}, run.status === "running" ? "running…" : duration(run.duration)));
    }
    """#
}
