"""Drives the console in Debian's Chromium through Playwright, as a person would.

Usage: console_flow.py LOGIN_URL SCREENSHOT_DIR

Logs in with the printed URL, runs `hello` from its form and watches the run finish live, runs
`shouty` with markup in its input and checks it shows as text, and saves a screenshot of every page.
Prints one line per check; exits non-zero on the first failure (with the page's text).
"""
import os
import sys

from playwright.sync_api import sync_playwright, expect

login_url, shots = sys.argv[1], sys.argv[2]
os.makedirs(shots, exist_ok=True)
base = login_url.split("/login")[0]
XSS = "<img src=x onerror=alert(1)>"


def shot(page, name):
    page.screenshot(path=os.path.join(shots, name), full_page=True)
    print(f"screenshot {name}")


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
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)

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
