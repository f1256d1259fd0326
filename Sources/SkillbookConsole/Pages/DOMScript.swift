/// `dom.js`: builds elements. Every value goes in as text (`textContent`), never as markup.
enum DOMScript {
    static let text = #"""
    // h("tag.class", {attributes}, ...children): strings become text nodes, never HTML.
    export function h(spec, attributes = {}, ...children) {
      const [tag, ...classes] = spec.split(".");
      const element = document.createElement(tag || "div");
      if (classes.length) element.className = classes.join(" ");
      for (const [name, value] of Object.entries(attributes || {})) {
        if (value === undefined || value === null || value === false) continue;
        if (name.startsWith("on") && typeof value === "function") element.addEventListener(name.slice(2), value);
        else if (name === "text") element.textContent = String(value);
        else element.setAttribute(name, value === true ? "" : String(value));
      }
      append(element, children);
      return element;
    }

    function append(element, children) {
      for (const child of children) {
        if (child === undefined || child === null || child === false) continue;
        if (Array.isArray(child)) append(element, child);
        else if (child instanceof Node) element.appendChild(child);
        else element.appendChild(document.createTextNode(String(child)));
      }
    }

    export function clear(element) {
      while (element.firstChild) element.removeChild(element.firstChild);
      return element;
    }

    // A value as text: strings as they are, everything else as indented JSON.
    export function show(value) {
      if (value === undefined || value === null) return "";
      return typeof value === "string" ? value : JSON.stringify(value, null, 2);
    }

    // A long value shortened, with a button that shows all of it.
    export function longText(value, limit = 600) {
      const full = show(value);
      const pre = h("pre.value", {}, full.length > limit ? full.slice(0, limit) + "…" : full);
      if (full.length <= limit) return pre;
      const button = h("button.link", { type: "button" }, `show all (${full.length} characters)`);
      button.addEventListener("click", () => { pre.textContent = full; button.remove(); });
      return h("div", {}, pre, button);
    }

    export function statusBadge(status) {
      return h(`span.badge.s-${status}`, { title: status }, status.replaceAll("_", " "));
    }

    export function time(iso) {
      if (!iso) return "";
      const date = new Date(iso);
      return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
    }

    export function duration(seconds) {
      if (seconds === null || seconds === undefined) return "–";
      if (seconds < 10) return seconds.toFixed(2) + "s";
      if (seconds < 60) return seconds.toFixed(1) + "s";
      const whole = Math.round(seconds);
      if (whole < 3600) return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, "0")}s`;
      return `${Math.floor(whole / 3600)}h${String(Math.floor((whole % 3600) / 60)).padStart(2, "0")}m`;
    }
    """#
}
