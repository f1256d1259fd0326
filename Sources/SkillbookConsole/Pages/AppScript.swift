/// `app.js`: draws the page the path names, marks the current section in the nav, and follows
/// links inside the console without reloading.
enum AppScript {
    static let text = #"""
    import { h, clear } from "/assets/dom.js";
    import { renderRuns } from "/assets/runs.js";
    import { renderRun } from "/assets/run.js";
    import { renderPlaybooks, renderPlaybook } from "/assets/playbooks.js";
    import { renderSkills } from "/assets/skills.js";
    import { renderSchedules } from "/assets/schedules.js";
    import { renderConfirmations } from "/assets/confirmations.js";
    import { renderChat } from "/assets/chat.js";

    let cleanup = null;

    function route(path) {
      const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
      if (parts.length === 0 || (parts[0] === "runs" && parts.length === 1)) return ["runs", () => renderRuns];
      if (parts[0] === "runs" && parts.length === 2) return ["runs", () => (main) => renderRun(main, parts[1])];
      if (parts[0] === "playbooks" && parts.length === 1) return ["playbooks", () => renderPlaybooks];
      if (parts[0] === "playbooks" && parts.length === 2) return ["playbooks", () => (main) => renderPlaybook(main, parts[1])];
      if (parts[0] === "skills") return ["skills", () => renderSkills];
      if (parts[0] === "schedules" && parts.length === 1) return ["schedules", () => renderSchedules];
      if (parts[0] === "confirmations" && parts.length === 1) return ["confirmations", () => renderConfirmations];
      if (parts[0] === "chat" && parts.length === 1) return ["chat", () => renderChat];
      return ["", () => (main) => { main.appendChild(h("p", {}, "No such page.")); }];
    }

    export async function show(path) {
      if (cleanup) { cleanup(); cleanup = null; }
      const [section, page] = route(path);
      for (const link of document.querySelectorAll("nav a")) {
        if (link.dataset.section === section) link.setAttribute("aria-current", "page");
        else link.removeAttribute("aria-current");
      }
      const main = clear(document.getElementById("main"));
      try {
        cleanup = (await page()(main)) || null;
      } catch (error) {
        main.appendChild(h("p.error", { role: "alert" }, error.status === 401 ? "Not logged in: open the URL that 'skillbook serve' printed." : "Error: " + error.message));
      }
      main.focus({ preventScroll: true });
    }

    export function go(path) {
      history.pushState(null, "", path);
      show(path);
    }

    document.addEventListener("click", (event) => {
      const link = event.target.closest("a");
      if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
      const url = new URL(link.href, location.href);
      if (url.origin !== location.origin || url.pathname.startsWith("/api/") || url.pathname.startsWith("/assets/")) return;
      event.preventDefault();
      go(url.pathname + url.search);
    });
    window.addEventListener("popstate", () => show(location.pathname));
    show(location.pathname);
    """#
}
