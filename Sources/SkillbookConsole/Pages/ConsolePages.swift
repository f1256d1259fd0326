/// The pages' HTML: one shell for every page (the script module draws the page the path names),
/// and a plain message page for refusals. No inline script or style (the CSP forbids them).
enum ConsolePages {
    static let index = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <title>Skillbook</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="/assets/style.css">
    <script type="module" src="/assets/app.js"></script>
    </head>
    <body>
    <a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <a class="brand" href="/runs">Skillbook</a>
      <nav aria-label="Sections">
        <a href="/runs" data-section="runs">Runs</a>
        <a href="/playbooks" data-section="playbooks">Playbooks</a>
        <a href="/schedules" data-section="schedules">Schedules</a>
        <a href="/confirmations" data-section="confirmations">Confirmations</a>
        <a href="/skills" data-section="skills">Skills</a>
        <a href="/chat" data-section="chat">Chat</a>
      </nav>
      <span id="live" class="live" role="status" aria-live="polite"></span>
    </header>
    <main id="main" tabindex="-1"><p class="muted">Loading…</p></main>
    </body>
    </html>
    """#

    /// A page with a title and a message, both escaped.
    static func message(title: String, message: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="color-scheme" content="light dark">
        <title>\(escape(title))</title><link rel="icon" href="data:,"><link rel="stylesheet" href="/assets/style.css"></head>
        <body><main class="message"><h1>\(escape(title))</h1><p>\(escape(message))</p></main></body></html>
        """
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
