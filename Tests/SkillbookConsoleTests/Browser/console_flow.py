"""Drives the console in Debian's Chromium through Playwright, as a person would.

Usage: console_flow.py LOGIN_URL SCREENSHOT_DIR

Logs in with the printed URL, runs `hello` from its form and watches the run finish live, runs
`shouty` with markup in its input and checks it shows as text, dry-runs `failing`, rolls back a
succeeded `note` run after its preview, resumes a `stuck` run that a `skillbook run` child
(SKILLBOOK_BIN, SKILLBOOK_STATE, SKILLBOOK_WORKSPACE) was killed in with SIGKILL, approves a
`purge` run that waits for an approval on the Confirmations page, chats a request
into a model's plan (the test's scripted model server) and runs it, saves it as a playbook and
looks at its step graph, edits the broken playbook until its diagnostic goes away and saves it,
and saves a screenshot of every page.
Prints one line per check; exits non-zero on the first failure (with the page's text).
"""
import json
import os
import signal
import subprocess
import sys
import time

from playwright.sync_api import sync_playwright, expect

login_url, shots = sys.argv[1], sys.argv[2]
os.makedirs(shots, exist_ok=True)
base = login_url.split("/login")[0]
XSS = "<img src=x onerror=alert(1)>"


def shot(page, name):
    page.screenshot(path=os.path.join(shots, name), full_page=True)
    print(f"screenshot {name}")


def api(page, path):
    """GET /api/v1/PATH with the page's session (the journal as the API reads it)."""
    return page.evaluate("async (path) => (await fetch('/api/v1/' + path)).json()", path)


def journal(page, run_id):
    return api(page, "runs/" + run_id)


def journal_runs(page, playbook):
    return api(page, "runs?playbook=" + playbook)["runs"]


pages = []
PLAYWRIGHT = sync_playwright().start()


def main():
    # Started without `with`, so a failure can still read the page before it stops.
    p = PLAYWRIGHT
    args = ["--no-sandbox"] if os.geteuid() == 0 else []
    browser = p.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=args)
    context = browser.new_context(viewport={"width": 1200, "height": 800}, color_scheme="light")
    page = context.new_page()
    pages.append(page)
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # A 409 is an answer the page handles (resume asks about calls with no result that way);
    # Chromium still logs the status as a console error.
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" and "status of 409" not in message.text else None)

    # Log in: the token becomes a cookie, and the runs page shows.
    page.goto(login_url)
    expect(page).to_have_url(base + "/runs")
    expect(page.get_by_role("heading", name="Runs")).to_be_visible()
    expect(page.get_by_text("No runs yet")).to_be_visible()
    print("ok logged in")

    # The playbooks list, then hello's page with its generated form.
    page.get_by_role("link", name="Playbooks").click()
    expect(page.get_by_role("heading", name="Playbooks")).to_be_visible()
    expect(page.locator('[data-playbook="broken"]').get_by_text("1 error")).to_be_visible()
    shot(page, "playbooks.png")
    # A broken playbook: its diagnostic in the list and at its line in the source; no run form.
    page.get_by_role("link", name="broken", exact=True).click()
    expect(page.locator(".diagnostics")).to_contain_text("nosuch.skill")
    expect(page.locator(".source li.flagged")).to_have_count(1)
    assert page.locator(".run-form").count() == 0, "a broken playbook offered a run form"
    assert "null" not in page.inner_text("main"), "the page shows 'null'"
    shot(page, "playbook-broken.png")
    page.go_back()
    page.get_by_role("link", name="hello", exact=True).click()
    expect(page.get_by_role("heading", name="hello")).to_be_visible()
    name = page.get_by_label("name", exact=True)
    expect(name).to_have_value("world")
    expect(page.get_by_label("times", exact=True)).to_have_attribute("max", "5")
    shot(page, "playbook.png")

    # Run it from the form (keyboard only) and watch it finish live on the run page.
    name.fill("Ada")
    name.press("Enter")
    page.wait_for_url("**/runs/*")
    run_id = page.url.rsplit("/", 1)[1]
    expect(page.locator(".run")).to_have_attribute("data-status", "succeeded", timeout=15000)
    expect(page.locator('[data-step="greet"]')).to_have_attribute("data-status", "succeeded")
    expect(page.locator(".values").last).to_contain_text("Hello Ada")
    shot(page, "run.png")
    print(f"ok ran hello {run_id}")

    # A slow run seen from the runs page: it appears and ends there without a reload.
    page.get_by_role("link", name="Runs").click()
    expect(page.locator(f'tr[data-run="{run_id}"]')).to_be_visible()
    page.evaluate("""async () => {
        const csrf = (await (await fetch('/api/v1/session')).json()).csrf;
        await fetch('/api/v1/playbooks/slow/run', {method: 'POST', headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
          body: JSON.stringify({inputs: {seconds: 1.5}})});
    }""")
    slow = page.locator('tr[data-status]').filter(has_text="slow")
    expect(slow).to_have_attribute("data-status", "running", timeout=10000)
    expect(slow).to_have_attribute("data-status", "succeeded", timeout=15000)
    expect(page.locator(".strip").filter(has_text="hello").locator(".cell:not(.empty)")).to_have_count(1)
    shot(page, "runs.png")
    print("ok runs page followed a run live")

    # Markup in a value is text: shouty echoes it into the journal and the page.
    page.goto(base + "/playbooks/shouty")
    page.get_by_role("textbox", name="text", exact=True).fill(XSS)
    page.get_by_role("button", name="Run shouty").click()
    page.wait_for_url("**/runs/*")
    expect(page.locator(".run")).to_have_attribute("data-status", "succeeded", timeout=15000)
    expect(page.locator("main")).to_contain_text(XSS)
    assert page.locator("main img").count() == 0, "an <img> element was created from a value"
    shot(page, "run-markup.png")
    print("ok markup shown as text")

    # A run's page follows it live: running, then succeeded, without a reload.
    slow_id = page.evaluate("""async () => {
        const csrf = (await (await fetch('/api/v1/session')).json()).csrf;
        const answer = await fetch('/api/v1/playbooks/slow/run', {method: 'POST',
          headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf}, body: JSON.stringify({inputs: {seconds: 2}})});
        return (await answer.json()).run;
    }""")
    page.goto(base + "/runs/" + slow_id)
    expect(page.locator(".run")).to_have_attribute("data-status", "running", timeout=10000)
    expect(page.locator('[data-step="wait"]')).to_have_attribute("data-status", "running", timeout=10000)
    shot(page, "run-live.png")
    expect(page.locator(".run")).to_have_attribute("data-status", "succeeded", timeout=15000)
    expect(page.locator('[data-step="wait"]')).to_have_attribute("data-status", "succeeded")
    print("ok run page followed its run live")

    # A big run: the step lists its first 20 items and says how many more there are.
    many_id = page.evaluate("""async () => {
        const csrf = (await (await fetch('/api/v1/session')).json()).csrf;
        const answer = await fetch('/api/v1/playbooks/many/run', {method: 'POST',
          headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
          body: JSON.stringify({inputs: {items: Array.from({length: 30}, (_, i) => i)}})});
        return (await answer.json()).run;
    }""")
    page.goto(base + "/runs/" + many_id)
    expect(page.locator(".run")).to_have_attribute("data-status", "succeeded", timeout=15000)
    expect(page.locator('[data-step="each"] summary')).to_contain_text("30 calls")
    expect(page.locator('[data-step="each"] [data-left-out="10"]')).to_contain_text("10 more (each[item 21] … each[item 30]): 10 succeeded")
    expect(page.locator('[data-step="each"] .call')).to_have_count(20)
    print("ok a big run's page lists the first items and counts the rest")

    # A failing run: rolled back, the failing step marked with its error, the note undone.
    failed_id = page.evaluate("""async () => {
        const csrf = (await (await fetch('/api/v1/session')).json()).csrf;
        const answer = await fetch('/api/v1/playbooks/failing/run', {method: 'POST',
          headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf}, body: JSON.stringify({inputs: {}})});
        return (await answer.json()).run;
    }""")
    page.goto(base + "/runs/" + failed_id)
    expect(page.locator(".run")).to_have_attribute("data-status", "rolled_back", timeout=15000)
    expect(page.locator('[data-step="boom"]')).to_have_attribute("data-status", "failed")
    expect(page.locator('[data-step="boom"]')).to_contain_text("the disk is full")
    expect(page.locator('[data-step="note"]')).to_contain_text("undone")
    expect(page.locator('[data-step="note"]')).to_contain_text("Draft </script><b>bold</b>")
    assert page.locator("main b").count() == 0, "a <b> element was created from a value"
    shot(page, "run-failed.png")
    print("ok failed run rolled back, failing step marked")

    # Dry run from the playbook page: the plan under the form, nothing recorded.
    page.goto(base + "/playbooks/failing")
    page.get_by_role("button", name="Dry run").click()
    expect(page.locator('.plan tr[data-step="note"]')).to_contain_text("can be rolled back", timeout=10000)
    expect(page.locator(".plan")).to_contain_text("the disk is full")  # debug.fail is a query: it ran
    expect(page.locator(".plan")).to_contain_text("Nothing was recorded")
    assert page.locator("main b").count() == 0, "a <b> element was created from a planned parameter"
    shot(page, "playbook-dry-run.png")
    print("ok dry run showed the plan")

    # Roll back a succeeded run: the preview first (undo / keep), then the journal after "Undo".
    page.goto(base + "/playbooks/note")
    page.get_by_label("title", exact=True).fill("Milk")
    page.get_by_role("button", name="Run note").click()
    page.wait_for_url("**/runs/*")
    note_id = page.url.rsplit("/", 1)[1]
    expect(page.locator(".run")).to_have_attribute("data-status", "succeeded", timeout=15000)
    expect(page.locator('[data-action="resume"]')).to_be_disabled()
    expect(page.locator("#why-resume")).to_contain_text("already finished")
    expect(page.locator('[data-action="cancel"]')).to_be_disabled()
    page.locator('[data-action="rollback"]').click()
    preview = page.locator('[data-panel="rollback"]')
    expect(preview).to_contain_text("Will be undone")
    expect(preview).to_contain_text("notes.create")
    shot(page, "run-rollback-preview.png")
    # "Keep" changes nothing, and says so.
    preview.locator('[data-choice="keep"]').click()
    expect(page.locator(".action-panel")).to_contain_text("Kept: nothing was undone.")
    assert journal(page, note_id)["status"] == "succeeded", "keep undid something"
    page.locator('[data-action="rollback"]').click()
    page.locator('[data-panel="rollback"] [data-choice="undo"]').click()
    expect(page.locator(".run")).to_have_attribute("data-status", "rolled_back", timeout=15000)
    expect(page.locator('[data-step="write"]')).to_contain_text("undone")
    expect(page.locator(".action-panel")).to_contain_text("Done: its status is now rolled back.")
    record = journal(page, note_id)
    assert record["status"] == "rolled_back" and [c["step"] for c in record["compensations"]] == ["write"], record
    expect(page.locator('[data-action="rollback"]')).to_be_disabled()
    expect(page.locator("#why-rollback")).to_contain_text("already rolled back")
    shot(page, "run-rolled-back.png")
    print("ok rolled back a succeeded run after its preview")

    # Resume a run killed with kill -9 in a `skillbook run` of another process.
    child = subprocess.Popen([os.environ["SKILLBOOK_BIN"], "run", "stuck", "--state", os.environ["SKILLBOOK_STATE"]],
                             cwd=os.environ["SKILLBOOK_WORKSPACE"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             stdin=subprocess.DEVNULL)
    try:
        stuck_id = None
        deadline = time.time() + 15
        while time.time() < deadline and not stuck_id:
            runs = api(page, "runs?playbook=stuck")["runs"]
            if runs and any(c["step"] == "wait" for c in journal(page, runs[0]["id"])["calls"]):
                stuck_id = runs[0]["id"]
            else:
                time.sleep(0.1)
        assert stuck_id, "the child never reached its 'wait' step"
        page.goto(base + "/runs/" + stuck_id)
        expect(page.locator(".run")).to_have_attribute("data-status", "running", timeout=10000)
        expect(page.locator('[data-action="cancel"]')).to_be_disabled()
        expect(page.locator("#why-cancel")).to_contain_text(f"in process {child.pid}")
        shot(page, "run-other-process.png")
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    expect(page.locator(".run")).to_have_attribute("data-status", "interrupted", timeout=10000)
    expect(page.locator('[data-action="resume"]')).to_be_enabled()
    page.locator('[data-action="resume"]').click()
    choice = page.locator('[data-panel="uncertain"]')
    expect(choice).to_contain_text("shell.run")
    shot(page, "run-resume-uncertain.png")
    choice.locator('[data-choice="skip"]').click()
    expect(page.locator(".run")).to_have_attribute("data-status", "succeeded", timeout=15000)
    expect(page.locator(".action-panel")).to_contain_text("Done: its status is now succeeded.")
    assert journal(page, stuck_id)["status"] == "succeeded"
    print("ok resumed a run killed with kill -9")

    # Approve a run that waits: `skillbook run purge` of another process, with no terminal, stops at
    # its confirmation and exits 4; the Confirmations page approves it and the run goes on.
    waited = subprocess.run([os.environ["SKILLBOOK_BIN"], "run", "purge", "--state", os.environ["SKILLBOOK_STATE"]],
                            cwd=os.environ["SKILLBOOK_WORKSPACE"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            stdin=subprocess.DEVNULL, timeout=60)
    assert waited.returncode == 4, f"skillbook run purge exited {waited.returncode}, not 4 (waiting)"
    waiting = api(page, "approvals")["approvals"]
    assert len(waiting) == 1 and waiting[0]["step"] == "remove", waiting
    purge_id = waiting[0]["run"]
    page.get_by_role("link", name="Confirmations").click()
    row = page.locator(f'tr[data-run="{purge_id}"]')
    expect(row).to_contain_text("notes.delete")
    expect(row).to_contain_text("<b>Old list</b>")  # markup in a value is text
    assert page.locator("tr[data-run] b").count() == 0
    shot(page, "confirmations.png")
    row.locator('[data-action="approve"]').click()
    expect(page.locator(".panel")).to_contain_text("approved by")
    expect(page.locator("[data-empty]")).to_be_visible()
    approved = journal(page, purge_id)
    assert approved["status"] == "succeeded", approved["status"]
    assert [c["step"] for c in approved["calls"]] == ["make", "remove"], approved["calls"]
    assert api(page, "approvals")["approvals"] == []
    print("ok approved a waiting run from the Confirmations page")
    # Chat: a request the model (a scripted server) plans, its cards, approved, run live, saved.
    page.get_by_role("link", name="Chat").click()
    expect(page.get_by_role("heading", name="Chat")).to_be_visible()
    page.get_by_label("Message").fill("read notes.txt and save it as a note")
    page.get_by_label("Message").press("Enter")
    card = page.locator(".plan-card")
    expect(card).to_contain_text("notes.create", timeout=15000)
    expect(card.locator('li[data-step="save"]')).to_contain_text("changes something")
    expect(page.locator(".decision")).to_contain_text("3 · model plan")
    shot(page, "chat.png")
    assert not journal_runs(page, "plan"), "the plan ran before it was approved"
    page.locator('[data-action="approve"]').click()
    expect(page.locator(".chat-log li").last).to_contain_text("Done:", timeout=15000)
    expect(page.locator('.chat-steps li[data-step="save"]')).to_have_attribute("data-status", "succeeded")
    chat_run = api(page, "chat")["run"]
    record = journal(page, chat_run)
    assert record["status"] == "succeeded" and record["trigger"] == "console" and record["playbook"] == "plan", record
    page.locator("#save-name").fill("chat-note")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".save-form")).to_contain_text("Saved as Playbooks/chat-note.yaml")
    saved = os.path.join(os.environ["SKILLBOOK_WORKSPACE"], "Playbooks", "chat-note.yaml")
    assert os.path.exists(saved), "the chat's playbook was not written"
    shot(page, "chat-run.png")
    print(f"ok chat planned, approved and ran {chat_run}, saved as a playbook")

    # The saved playbook's step graph: a data edge from read to save.
    page.locator(".save-form a").click()
    expect(page.get_by_role("heading", name="chat-note")).to_be_visible()
    expect(page.locator('svg.graph g.node[data-step="read"]')).to_be_visible()
    expect(page.locator('svg.graph path.data[data-from="read"][data-to="save"]')).to_have_count(1)
    shot(page, "playbook-graph.png")
    print("ok step graph with its data edge")

    # The editor: the diagnostic at its line goes away as the playbook is fixed; only then saved.
    page.goto(base + "/playbooks/broken")
    page.locator('[data-action="edit"]').click()
    editor = page.locator("#editor")
    expect(page.locator(".gutter li.flagged")).to_have_count(1)
    expect(page.locator('.gutter li[data-line="4"]')).to_have_class("flagged d-error")
    expect(page.locator('[data-action="save"]')).to_be_disabled()
    editor.press("Control+End")
    editor.type("\n    with: { value: fixed }")
    expect(page.locator(".editor-status")).to_have_attribute("data-state", "invalid", timeout=10000)
    shot(page, "playbook-editor.png")
    fixed = "name: broken\nsteps:\n  - id: one\n    skill: debug.echo\n    with: { value: fixed }\n"
    editor.fill(fixed)
    expect(page.locator(".gutter li.flagged")).to_have_count(0, timeout=10000)
    expect(page.locator(".editor-status")).to_have_attribute("data-state", "valid")
    page.locator('[data-action="save"]').click()
    expect(page.locator(".editor-status")).to_contain_text("Saved to Playbooks/broken.yaml")
    with open(os.path.join(os.environ["SKILLBOOK_WORKSPACE"], "Playbooks", "broken.yaml")) as handle:
        assert handle.read() == fixed, "the saved file is not the edited text"
    assert api(page, "playbooks/broken")["valid"], "the saved playbook does not validate"
    shot(page, "playbook-saved.png")
    print("ok edited a playbook until its diagnostic went away, and saved it")

    page.get_by_role("link", name="Schedules").click()
    expect(page.locator('tr[data-playbook="morning"]')).to_contain_text("cron 30 7 * * *")
    expect(page.locator('tr[data-playbook="morning"]')).to_contain_text("Europe/Paris")
    # The fires the ledger holds as not started: counted per reason, the newest listed.
    misses = page.locator('tr[data-playbook="morning"] td.misses')
    expect(misses).to_contain_text("3 fires not started")
    expect(misses).to_contain_text("2 missed: catch_up")
    expect(misses).to_contain_text("1 skipped: the previous run still ran")
    expect(misses.locator("li[data-outcome]")).to_have_count(2)
    expect(misses.locator('li[data-outcome="skipped"]')).to_have_count(1)
    expect(misses.locator('li[data-outcome="missed"]')).to_contain_text("(2)")
    shot(page, "schedules.png")
    print("ok schedules page, with its missed and skipped fires")

    page.get_by_role("link", name="Skills").click()
    expect(page.locator('[data-skill="debug.echo"]')).to_be_visible()
    shot(page, "skills.png")

    dark = browser.new_context(viewport={"width": 1200, "height": 800}, color_scheme="dark", storage_state=context.storage_state())
    dark_page = dark.new_page()
    dark_page.goto(base + "/runs")
    expect(dark_page.locator(f'tr[data-run="{run_id}"]')).to_be_visible()
    shot(dark_page, "runs-dark.png")
    dark_page.goto(base + "/runs/" + run_id)
    expect(dark_page.locator(".run")).to_have_attribute("data-status", "succeeded")
    shot(dark_page, "run-dark.png")

    assert not dialogs, f"a dialog opened: {dialogs}"
    assert not errors, f"the page reported errors: {errors}"
    print("ok no dialogs, no page errors")
    browser.close()


try:
    main()
except Exception as error:  # noqa: BLE001 — the test prints the reason and fails
    print(f"FAILED: {error}", file=sys.stderr)
    for page in pages:
        try:
            print(f"page {page.url}: {page.inner_text('main')}", file=sys.stderr)
        except Exception:  # noqa: BLE001
            pass
    PLAYWRIGHT.stop()
    sys.exit(1)
PLAYWRIGHT.stop()
