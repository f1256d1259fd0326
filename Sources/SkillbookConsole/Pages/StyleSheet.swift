/// `style.css`: light and dark (prefers-color-scheme), visible focus, large click targets.
enum StyleSheet {
    static let text = #"""
    :root {
      --bg: #f7f7f5; --fg: #1d1f21; --muted: #5f6368; --card: #ffffff; --line: #d9dadc; --accent: #1f5fbf;
      --ok: #1e7b34; --warn: #9a6700; --bad: #b3261e; --undo: #6f42c1; --run: #1f5fbf; --idle: #80868b;
      --code: #eef0f2; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color-scheme: light dark;
    }
    @media (prefers-color-scheme: dark) {
      :root { --bg: #151719; --fg: #e8eaed; --muted: #9aa0a6; --card: #1e2124; --line: #3c4043; --accent: #8ab4f8;
        --ok: #81c995; --warn: #fdd663; --bad: #f28b82; --undo: #c58af9; --run: #8ab4f8; --idle: #9aa0a6; --code: #26292c; }
    }
    * { box-sizing: border-box; }
    body { margin: 0; background: var(--bg); color: var(--fg); line-height: 1.45; }
    a { color: var(--accent); }
    a:focus-visible, button:focus-visible, select:focus-visible, input:focus-visible, textarea:focus-visible, summary:focus-visible {
      outline: 3px solid var(--accent); outline-offset: 2px; }
    .skip { position: absolute; left: -999px; top: 0; background: var(--card); padding: .5rem 1rem; }
    .skip:focus { left: .5rem; z-index: 10; }
    .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    .top { display: flex; align-items: center; gap: 1.5rem; padding: .6rem 1.5rem; background: var(--card); border-bottom: 1px solid var(--line); }
    .brand { font-weight: 700; font-size: 1.1rem; text-decoration: none; color: var(--fg); }
    nav { display: flex; gap: .25rem; }
    nav a { padding: .45rem .8rem; border-radius: 6px; text-decoration: none; color: var(--fg); }
    nav a:hover { background: var(--code); }
    nav a[aria-current="page"] { background: var(--accent); color: var(--card); }
    .live { margin-left: auto; color: var(--ok); font-size: .85rem; }
    main { max-width: 1100px; margin: 0 auto; padding: 1rem 1.5rem 3rem; outline: none; }
    main.message { max-width: 40rem; margin-top: 4rem; }
    h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
    h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
    h4 { margin: .5rem 0 .25rem; font-size: .95rem; }
    h5 { margin: .4rem 0 .15rem; font-size: .8rem; color: var(--muted); text-transform: uppercase; letter-spacing: .03em; }
    .muted { color: var(--muted); }
    .mono, code, pre { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: .9em; }
    .error { color: var(--bad); }
    p.error[role="alert"] { border: 1px solid var(--bad); border-left-width: 4px; border-radius: 6px; padding: .5rem .8rem; background: var(--card); }
    .num { text-align: right; font-variant-numeric: tabular-nums; }
    table { width: 100%; border-collapse: collapse; background: var(--card); border: 1px solid var(--line); border-radius: 8px; }
    th, td { padding: .5rem .7rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
    th { font-size: .8rem; color: var(--muted); font-weight: 600; }
    tr:last-child td { border-bottom: none; }
    .filters { display: flex; gap: 1rem; margin: 1rem 0; flex-wrap: wrap; }
    select, input, textarea, button { font: inherit; color: inherit; background: var(--card); border: 1px solid var(--line); border-radius: 6px; padding: .4rem .6rem; min-height: 2.2rem; }
    textarea { width: 100%; }
    button { cursor: pointer; }
    button.primary { background: var(--accent); color: var(--card); border-color: var(--accent); font-weight: 600; padding: .5rem 1.2rem; }
    button:disabled { opacity: .6; cursor: progress; }
    button.link { border: none; background: none; color: var(--accent); padding: 0; min-height: auto; text-decoration: underline; }
    .badge { display: inline-block; padding: .1rem .55rem; border-radius: 999px; font-size: .78rem; font-weight: 600; border: 1px solid currentColor; margin-right: .3rem; color: var(--muted); white-space: nowrap; }
    .s-succeeded { color: var(--ok); } .s-succeeded_with_errors { color: var(--warn); } .s-failed, .s-rollback_incomplete { color: var(--bad); }
    .s-rolled_back { color: var(--undo); } .s-running, .s-queued { color: var(--run); } .s-interrupted, .s-pending, .s-skipped { color: var(--idle); }
    .k-query { color: var(--ok); } .k-action { color: var(--warn); }
    .strips { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 28rem), 1fr)); gap: .4rem 2rem; margin-bottom: 1rem; }
    .strip { display: flex; align-items: center; gap: .6rem; min-width: 0; }
    .strip-name { flex: 0 0 9rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    .cells { display: flex; gap: 3px; flex-shrink: 0; }
    .cell { flex-shrink: 0; display: inline-block; width: 12px; height: 22px; border-radius: 3px; background: currentColor; }
    .cell:focus-visible { outline: 2px solid var(--fg); }
    .cell.empty { background: none; border: 1px dashed var(--line); }
    .facts { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1.2rem; background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: .8rem 1rem; }
    .facts dt, .values dt { color: var(--muted); }
    .facts dd, .values dd { margin: 0; }
    .values { display: grid; grid-template-columns: max-content 1fr; gap: .3rem 1.2rem; }
    pre.value { margin: 0; white-space: pre-wrap; word-break: break-word; background: var(--code); padding: .4rem .6rem; border-radius: 6px; max-height: 24rem; overflow: auto; }
    .timeline { list-style: none; padding: 0; margin: 0; border-left: 3px solid var(--line); }
    .step { margin: 0 0 .6rem; padding-left: 1rem; position: relative; }
    .step::before { content: ""; position: absolute; left: -8px; top: .7rem; width: 13px; height: 13px; border-radius: 50%; background: var(--line); }
    .step[data-status="succeeded"]::before { background: var(--ok); } .step[data-status="failed"]::before { background: var(--bad); }
    .step[data-status="running"]::before { background: var(--run); }
    .step details { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: .4rem .8rem; }
    .step summary { cursor: pointer; padding: .3rem 0; min-height: 2rem; }
    .call { border-top: 1px dashed var(--line); margin-top: .4rem; padding-top: .2rem; }
    .call.plain { border-top: none; margin-top: 0; }
    .cards { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); gap: 1rem; }
    .card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: .8rem 1rem; }
    .card h2 { margin: 0 0 .4rem; font-size: 1.05rem; }
    .card .params { font-size: .85rem; margin-top: .4rem; }
    .card details summary { cursor: pointer; color: var(--accent); padding: .2rem 0; }
    .summary { margin: .3rem 0; }
    #skill-filter { width: 100%; max-width: 24rem; margin-bottom: .5rem; }
    .run-form { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 1rem; display: grid; gap: .8rem; max-width: 40rem; }
    .field { display: grid; gap: .25rem; }
    .field label { font-weight: 600; }
    .required { color: var(--bad); }
    .diagnostics li.d-error, .d-error { color: var(--bad); } .d-warning { color: var(--warn); }
    .source { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: .5rem .5rem .5rem 3.5rem; font-size: .85rem; overflow-x: auto; }
    .source li { white-space: pre; font-family: ui-monospace, Menlo, Consolas, monospace; color: var(--muted); }
    .source li code { color: var(--fg); font-size: 1em; }
    .source li.flagged { background: color-mix(in srgb, var(--bad) 12%, transparent); }
    .source li div { white-space: normal; font-family: system-ui, sans-serif; }
    .steps li { margin: .2rem 0; }
    .actions { margin: .8rem 0; }
    .action-buttons { display: flex; flex-wrap: wrap; gap: .6rem 1.2rem; align-items: center; }
    .action { display: inline-flex; gap: .4rem; align-items: center; }
    .action small { max-width: 24rem; }
    .action button:disabled { cursor: not-allowed; }
    button.danger { border-color: var(--bad); color: var(--bad); }
    button.danger:disabled { border-color: var(--line); color: var(--muted); }
    .preview { background: var(--card); border: 1px solid var(--line); border-left: 4px solid var(--warn); border-radius: 8px; padding: .6rem 1rem; margin-top: .6rem; max-width: 48rem; }
    .preview h3 { margin: .2rem 0 .4rem; } .preview h4 { margin: .6rem 0 .2rem; font-size: .95rem; }
    .choices { display: flex; gap: .6rem; flex-wrap: wrap; align-items: center; margin-top: .6rem; }
    .notice { color: var(--ok); font-weight: 600; }
    .plan { margin-top: 1rem; max-width: 60rem; }
    .plan-table, .schedules { border-collapse: collapse; width: 100%; background: var(--card); border: 1px solid var(--line); border-radius: 8px; }
    .plan-table th, .plan-table td, .schedules th, .schedules td { text-align: left; vertical-align: top; padding: .4rem .6rem; border-bottom: 1px solid var(--line); }
    .fires { list-style: none; margin: 0; padding: 0; }
    .chat { display: grid; gap: 1rem; max-width: 60rem; }
    .chat-log { list-style: none; margin: 0; padding: 0; display: grid; gap: .5rem; }
    .msg { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: .5rem .8rem; max-width: 48rem; }
    .msg.user { justify-self: end; border-color: var(--accent); }
    .msg .who { display: block; font-size: .75rem; font-weight: 600; color: var(--muted); }
    .msg .text { white-space: pre-wrap; word-break: break-word; }
    .chat-cards { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(min(100%, 22rem), 1fr)); }
    .chat-cards .card h2 { margin-top: 0; }
    .chat-cards h3 { font-size: .95rem; margin: .7rem 0 .3rem; }
    .plan-steps { padding-left: 1.4rem; margin: 0; display: grid; gap: .5rem; }
    .plan-steps dl.values { margin-top: .3rem; font-size: .9rem; }
    .chat-form { display: grid; gap: .4rem; background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: .8rem 1rem; }
    .chat-form label, .save-form label { font-weight: 600; }
    .save-form { display: flex; gap: .6rem; flex-wrap: wrap; align-items: center; }
    .chat-steps { padding-left: 1.4rem; }
    .heading-row { display: flex; align-items: center; gap: 1rem; }
    .heading-row h2 { margin-right: auto; }
    .editor { display: grid; grid-template-columns: max-content 1fr; background: var(--card); border: 1px solid var(--line); border-radius: 8px; overflow: hidden; }
    .gutter { list-style: none; margin: 0; padding: .5rem .4rem; overflow: hidden; text-align: right; color: var(--muted); background: var(--code);
      font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .85rem; line-height: 1.4; user-select: none; }
    .gutter li { min-width: 2.5rem; padding-right: .3rem; }
    .gutter li.flagged { font-weight: 700; }
    .gutter li.flagged.d-error { background: var(--bad); color: var(--card); border-radius: 3px; }
    .gutter li.flagged.d-warning { background: var(--warn); color: var(--card); border-radius: 3px; }
    textarea.code { border: none; border-radius: 0; resize: vertical; padding: .5rem .6rem; font-family: ui-monospace, Menlo, Consolas, monospace;
      font-size: .85rem; line-height: 1.4; white-space: pre; overflow: auto; tab-size: 2; }
    .editor-status[data-state="invalid"] { color: var(--bad); } .editor-status[data-state="valid"] { color: var(--ok); }
    .editor-diagnostics { margin: .3rem 0; }
    .graph-box { overflow-x: auto; background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: .5rem; }
    svg.graph .node rect { fill: var(--code); stroke: var(--accent); stroke-width: 1.5; }
    svg.graph .node.playbook rect { stroke: var(--undo); stroke-dasharray: 5 3; }
    svg.graph a:focus-visible rect { stroke-width: 3; }
    svg.graph text { fill: var(--fg); font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 13px; }
    svg.graph .node-id { font-weight: 700; } svg.graph .node-target { fill: var(--muted); }
    svg.graph .node-line { fill: var(--muted); font-size: 11px; }
    svg.graph line.order { stroke: var(--line); stroke-width: 2; }
    svg.graph path.data { fill: none; stroke: var(--warn); stroke-width: 2; }
    svg.graph .arrow-head { fill: var(--warn); }
    progress, meter { vertical-align: middle; width: 10rem; }
    """#
}
