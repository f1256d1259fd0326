/// `confirmations.js`: the runs that wait for an approval (a step that needs confirmation, reached
/// where nobody could be asked), each with what it would touch and buttons to approve or decline.
/// Every value is set as text.
enum ConfirmationsScript {
    static let text = #"""
    import { h, clear } from "/assets/dom.js";
    import { get, post } from "/assets/api.js";

    export async function renderConfirmations(main) {
      const panel = h("div.panel", { "aria-live": "polite" });
      const list = h("div.confirmations");
      main.append(h("h1", {}, "Confirmations"),
        h("p.muted", {}, "Runs stopped at a step that needs confirmation, where nobody could be asked. "
          + "Approving lets the run go on from that step; declining fails the step, and the run rolls back."),
        panel, list);
      const draw = async () => {
        const answer = await get("approvals");
        clear(list);
        if (answer.approvals.length === 0) { list.append(h("p.muted", { "data-empty": "1" }, "No run waits for an approval.")); return; }
        list.append(h("table.confirmations", {},
          h("thead", {}, h("tr", {}, ["Run", "Step", "Touches", "Waiting since", "Expires", ""].map((t) => h("th", { scope: "col" }, t)))),
          h("tbody", {}, answer.approvals.map((a) => row(a, panel, draw)))));
      };
      await draw();
    }

    function row(approval, panel, redraw) {
      const touches = approval.touches
        ? h("div", {}, h("span", {}, approval.touches.items.length + " " + approval.touches.noun),
            h("ul.touches", {}, approval.touches.items.slice(0, 10).map((item) => h("li.mono", {}, item))),
            approval.touches.items.length > 10 ? h("span.muted", {}, "… and " + (approval.touches.items.length - 10) + " more") : null)
        : h("pre.mono", {}, JSON.stringify(approval.parameters, null, 2));
      const reason = h("input", { type: "text", name: "reason", placeholder: "reason (optional)", "aria-label": "Why it is declined" });
      const decide = (action, payload) => async (event) => {
        event.target.disabled = true;
        try {
          const answer = await post(`runs/${encodeURIComponent(approval.run)}/${action}`, payload());
          clear(panel).append(h("p.notice", {}, `Run ${answer.run.slice(0, 8)}: step '${answer.step}' ${answer.verdict} by ${answer.by}; the run is ${answer.status}.`));
        } catch (error) {
          clear(panel).append(h("p.error", { role: "alert" }, error.message));
        }
        await redraw();
      };
      return h("tr", { "data-run": approval.run },
        h("td", {}, h("a.mono", { href: "/runs/" + encodeURIComponent(approval.run) }, approval.run.slice(0, 8)), h("div.muted", {}, approval.playbook)),
        h("td", {}, h("span.mono", {}, approval.step), h("div.muted", {}, approval.skill + " — " + approval.title)),
        h("td", {}, touches),
        h("td.mono", {}, approval.requested),
        h("td.mono", {}, approval.expires),
        h("td", {},
          h("button", { type: "button", "data-action": "approve", onclick: decide("approve", () => ({ step: approval.step })) }, "Approve"),
          " ", reason, " ",
          h("button.danger", { type: "button", "data-action": "decline", onclick: decide("decline", () => ({ reason: reason.value })) }, "Decline")));
    }
    """#
}
