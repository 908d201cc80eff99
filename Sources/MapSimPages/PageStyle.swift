/// The style sheet of every page (`PageDocument`); light and dark.
enum PageStyle {
    static let css = #"""
:root {
  --text: #1d2327; --muted: #5f6b76; --line: #d9dee3; --panel: #f6f8fa; --back: #fff;
  --ok: #2f7d4a; --error: #c62828; --error-back: #fdecea; --cancelled: #8a8f98; --critical: #e06c00;
  --bar: #4f8fd9; --timeline: 34%;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root { --text: #e6e8ea; --muted: #9aa5b1; --line: #39414a; --panel: #1f252b; --back: #15191d; --error-back: #3b1e1e; --bar: #6aa5ea; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--text); background: var(--back); }
#app { max-width: 1500px; margin: 0 auto; padding: 16px 24px 64px; }
h1 { font-size: 22px; margin: 8px 0 2px; }
h2 { font-size: 18px; margin: 28px 0 8px; padding-top: 12px; border-top: 1px solid var(--line); }
h3 { font-size: 15px; margin: 18px 0 6px; }
code, pre, .row { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
a { color: var(--bar); }
.muted { color: var(--muted); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 6px 0; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; word-break: break-all; }
.summary-columns { display: flex; flex-wrap: wrap; gap: 8px 48px; }
table { border-collapse: collapse; }
th, td { text-align: left; padding: 3px 10px 3px 0; border-bottom: 1px solid var(--line); vertical-align: top; }
table.kinds td:not(:first-child), table.kinds th:not(:first-child), td.number { text-align: right; }
tr.has-failures td { color: var(--error); }
.errors li { color: var(--error); }
.no-errors { color: var(--ok); }
nav.contents a { margin-right: 12px; }

.toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 16px; padding: 6px 8px; background: var(--panel); border: 1px solid var(--line); border-bottom: 0; }
.filters { display: inline-flex; flex-wrap: wrap; gap: 2px 10px; }
.filter { white-space: nowrap; cursor: pointer; }
.toolbar input[type=search] { min-width: 220px; padding: 3px 6px; }
.counter { margin-left: auto; color: var(--muted); }
.row { display: grid; grid-template-columns: 48px 92px minmax(120px, 1fr) 86px 108px 72px var(--timeline); height: 22px; align-items: center;
  position: absolute; left: 0; right: 0; border-bottom: 1px solid var(--line); cursor: pointer; }
.row > span { overflow: hidden; white-space: nowrap; text-overflow: ellipsis; padding: 0 6px; }
.row.head { position: sticky; top: 0; z-index: 2; background: var(--panel); border-bottom: 1px solid var(--line); font-family: inherit; font-size: 12px; font-weight: 600; cursor: default; }
.row:not(.head):hover { background: var(--panel); }
.row.selected { outline: 2px solid var(--bar); outline-offset: -2px; }
.row.outcome-error { background: var(--error-back); color: var(--error); }
.row.outcome-cancelled { color: var(--cancelled); text-decoration: line-through; }
.row.outcome-not-modified .c-status, .row.outcome-no-content .c-status { color: var(--muted); }
.row.critical { box-shadow: inset 4px 0 var(--critical); font-weight: 600; }
.c-size, .c-index { text-align: right; }
.c-bar { position: relative; height: 100%; }
.bar { position: absolute; top: 6px; height: 10px; min-width: 2px; background: var(--bar); border-radius: 2px; }
.outcome-error .bar { background: var(--error); }
.outcome-cancelled .bar { background: var(--cancelled); }
.outcome-not-modified .bar, .outcome-no-content .bar { opacity: 0.55; }
.critical .bar { background: var(--critical); }
.scale { display: flex; justify-content: space-between; font-weight: 400; color: var(--muted); }
.scroller { position: relative; max-height: 70vh; overflow: auto; border: 1px solid var(--line); border-top: 0; }
.content { position: relative; min-height: 22px; }
.milestone-lines { position: absolute; top: 0; bottom: 0; right: 0; width: var(--timeline); pointer-events: none; overflow: hidden; }
.milestone { position: absolute; top: 0; bottom: 0; width: 0; border-left: 2px dashed; }
.milestone .label { position: sticky; top: 24px; display: inline-block; font-size: 11px; padding: 0 4px; background: var(--back); white-space: nowrap; }
.milestone-style-loaded { color: #8e44ad; }
.milestone-map-loaded { color: #1565c0; }
.milestone-map-idle { color: var(--ok); }
.critical-path ol { padding-left: 22px; }

aside.details { position: fixed; top: 0; right: 0; bottom: 0; width: min(560px, 92vw); overflow: auto; z-index: 10; padding: 12px 16px;
  background: var(--back); border-left: 1px solid var(--line); box-shadow: -6px 0 18px rgba(0, 0, 0, 0.15); }
aside.details header { display: flex; justify-content: space-between; align-items: center; }
aside.details .close { font-size: 20px; border: 0; background: none; cursor: pointer; color: var(--text); }
aside.details dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; }
aside.details dd { margin: 0; word-break: break-all; }
pre.event { background: var(--panel); padding: 8px; overflow: auto; }

.tile-zooms { display: flex; flex-wrap: wrap; gap: 16px; align-items: flex-start; }
.tile-zoom { margin: 0; }
.tile-zoom figcaption { color: var(--muted); font-size: 12px; margin-bottom: 4px; }
.tile-grid { display: block; border: 1px solid var(--line); image-rendering: pixelated; max-width: 100%; }
.tile-tip { font-size: 12px; color: var(--muted); min-height: 1.4em; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 12px; }
.swatch { display: inline-block; width: 14px; height: 14px; vertical-align: -2px; margin-right: 4px; border: 1px solid var(--line); }
.swatch.gradient { background: linear-gradient(90deg, hsl(145, 55%, 78%), hsl(145, 55%, 30%)); width: 40px; }
.swatch.parent { border: 2px dashed #000; }
.swatch.changed { background: #fff3cd; }
.swatch.only-golden { background: var(--error-back); }
.swatch.only-new { background: #e3f4e8; }

.status { font-weight: 600; }
.status-passed { color: var(--ok); }
.status-failed, .status-unreadable { color: var(--error); }
table.suite { width: 100%; }
table.suite tr.status-failed td:first-child, table.suite tr.status-unreadable td:first-child { color: var(--error); font-weight: 600; }
table.suite tr.status-passed td:first-child { color: var(--ok); }
ul.budgets { margin: 0; padding-left: 16px; }
ul.budgets li.exceeded { color: var(--error); }
.problems pre { white-space: pre-wrap; margin: 0; }
.side-by-side { border: 1px solid var(--line); font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
.pair { display: grid; grid-template-columns: 1fr 1fr; border-bottom: 1px solid var(--line); }
.pair > span { padding: 1px 6px; white-space: pre-wrap; word-break: break-all; }
.pair > span + span { border-left: 1px solid var(--line); }
.pair.head { font-family: system-ui, sans-serif; font-weight: 600; background: var(--panel); }
.pair.changed { background: #fff3cd; color: #1d2327; }
.pair.only-golden .golden { background: var(--error-back); }
.pair.only-new .new { background: #e3f4e8; color: #1d2327; }
.pair.fold button { grid-column: 1 / 3; border: 0; background: var(--panel); color: var(--muted); padding: 2px; cursor: pointer; }
.differences code { white-space: pre-wrap; }

.serve-columns { display: grid; grid-template-columns: minmax(0, 3fr) minmax(240px, 2fr); gap: 24px; }
.preview { height: 420px; border: 1px solid var(--line); background: var(--panel); }
@media (max-width: 900px) { .serve-columns { grid-template-columns: 1fr; } :root { --timeline: 24%; } }
"""#
}
