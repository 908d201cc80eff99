#!/usr/bin/env python3
"""How `mapsim report` does on a large trace: the time to write the page, its size, and in headless
Chromium the time to first paint, until the waterfall is drawn, and to draw rows after a scroll.

Usage (from the repository, with a release build and Chromium installed):
  python3 Benchmarks/report-page.py --binary "$(scripts/build-release)" [--requests 100000]
  python3 Benchmarks/report-page.py --binary "$(scripts/build-release)" --trace events.jsonl

Writes a JSON-lines trace of N tile requests (some failed, cancelled, from the cache) with the three
milestones (or takes the JSON-lines trace or events file --trace names), runs `mapsim report` on it (wall clock, peak memory with GNU time when present), then
opens the page from file:// in Chromium (--remote-debugging-pipe) and reads the page's own
performance entries: first-contentful-paint, and when its script set data-ready.

No tool a user would compare with runs here (DevTools opening a HAR of that size), so the figures are
printed against issue 49's goals and the last recorded figures (LAST, from the manual's table): written
in under a second, first paint under half a second, and peak memory flat in the trace's size — the
report is also run on a trace a quarter the size, and the ratio of the two peaks printed (1.0 is flat,
4.0 grows with the trace; with --trace, its first quarter of lines).
"""
import argparse, fcntl, json, os, select, shutil, subprocess, sys, tempfile, time

# The last recorded figures of 100,000 requests (30 November 2026): seconds to write, peak MB, first paint in seconds.
LAST = {"written": 0.50, "peak": 58, "paint": 0.16}


def trace(path, count):
    with open(path, "w") as out:
        out.write(json.dumps({"mapsim": "0.1.0", "scenario": f"synthetic-{count}", "seed": 0, "engine": "maplibre-native",
                              "style": "https://maps.test/style.json", "network": "3g"}) + "\n")
        style = {"type": "resource-request", "begin": 0, "end": 1000, "data": {"data-source": "network", "request": {
            "url": "https://maps.test/style.json", "kind": "style", "priority": "regular", "loading-method": ["cache", "network"]},
            "response": {"no-content": False, "not-modified": False, "must-revalidate": False, "source": "network", "size": 900}, "cancelled": False}}
        out.write(json.dumps(style) + "\n")
        out.write(json.dumps({"type": "style-loaded", "begin": 1000, "end": 1000, "data": {}}) + "\n")
        for i in range(1, count):
            request = {"url": f"https://maps.test/tiles/14/{i % 1000}/{i // 1000}.pbf", "kind": "tile", "priority": "regular",
                       "loading-method": ["cache", "network"]}
            data = {"data-source": "network", "request": request, "cancelled": False}
            if i % 50 == 9:
                data["data-source"], data["cancelled"] = "resource-loader", True
            elif i % 50 == 7:
                data["response"] = {"no-content": False, "not-modified": False, "must-revalidate": False, "source": "network",
                                    "error": {"reason": "server", "message": f"HTTP 503 server error: tile {i}"}}
            else:
                data["response"] = {"no-content": False, "not-modified": False, "must-revalidate": False,
                                    "source": "cache" if i % 50 == 11 else "network", "size": 500 + i % 300, "etag": f"\"e{i}\""}
            out.write(json.dumps({"type": "resource-request", "begin": i * 1000, "end": i * 1000 + 40000, "data": data}) + "\n")
        end = count * 1000 + 50000
        out.write(json.dumps({"type": "map-loaded", "begin": end, "end": end, "data": {}}) + "\n")
        out.write(json.dumps({"type": "map-idle", "begin": end + 300000, "end": end + 300000, "data": {}}) + "\n")


class Browser:
    """Chromium over --remote-debugging-pipe: commands on its fd 3, answers and events on its fd 4."""

    def __init__(self, binary, profile):
        to_r, self.w = os.pipe()
        self.r, from_w = os.pipe()
        # The child's ends moved above any descriptor in use (closed on exec), so that making them its
        # 3 and 4 clobbers neither; dup2 leaves 3 and 4 open across exec.
        high_r, high_w = fcntl.fcntl(to_r, fcntl.F_DUPFD_CLOEXEC, 100), fcntl.fcntl(from_w, fcntl.F_DUPFD_CLOEXEC, 100)
        os.close(to_r)
        os.close(from_w)
        def child():
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)
        self.proc = subprocess.Popen([binary, "--headless=new", "--no-sandbox", "--remote-debugging-pipe", f"--user-data-dir={profile}",
                                      "--window-size=1400,1000", "--no-first-run", "--disable-extensions", "about:blank"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=child,
                                     close_fds=False)
        os.close(high_r)
        os.close(high_w)
        self.buffer, self.next, self.events = b"", 0, []

    def call(self, method, params=None, session=None, timeout=120):
        self.next += 1
        message = {"id": self.next, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.w, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            while b"\0" in self.buffer:
                raw, self.buffer = self.buffer.split(b"\0", 1)
                answer = json.loads(raw)
                if answer.get("id") == self.next:
                    if "error" in answer:
                        raise RuntimeError(f"{method}: {answer['error']}")
                    return answer.get("result", {})
                self.events.append(answer)
            ready, _, _ = select.select([self.r], [], [], 0.5)
            if ready:
                self.buffer += os.read(self.r, 1 << 20)
        raise TimeoutError(method)

    def evaluate(self, session, expression):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True}, session)
        return result.get("result", {}).get("value")

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        self.proc.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--requests", type=int, default=100_000, help="requests in the generated trace")
    parser.add_argument("--trace", help="a JSON-lines trace or events file (mapsim load --events) to report instead of a generated one")
    parser.add_argument("--chromium", default="/usr/lib/chromium/chromium" if os.path.exists("/usr/lib/chromium/chromium") else shutil.which("chromium"))
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="mapsim-report-bench-")
    source, page = os.path.join(folder, "trace.jsonl"), os.path.join(folder, "report.html")
    if args.trace:
        shutil.copyfile(args.trace, source)
        with open(source, encoding="utf-8") as lines:
            requests = sum(1 for line in lines if '"resource-request"' in line)
    else:
        trace(source, args.requests)
        requests = args.requests
    timed = shutil.which("time") and os.path.exists("/usr/bin/time")

    def report(trace_path, page_path):
        """Seconds to write the page, and the peak memory in MB (None without GNU time)."""
        start = time.perf_counter()
        run = subprocess.run((["/usr/bin/time", "-f", "%M"] if timed else []) + [args.binary, "report", trace_path, "-o", page_path],
                             capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if run.returncode != 0:
            sys.exit(run.stderr)
        return seconds, (int(run.stderr.strip().splitlines()[-1]) / 1024 if timed else None)

    written, peak_mb = report(source, page)
    peak = f", peak {peak_mb:.0f} MB" if peak_mb else ""
    print(f"trace: {requests:,} requests, {os.path.getsize(source) / 1e6:.1f} MB of JSON lines")
    print(f"mapsim report: {written:.2f} s{peak}; page {os.path.getsize(page) / 1e6:.1f} MB")
    quarter_source = os.path.join(folder, "quarter.jsonl")
    if args.trace:
        with open(source, encoding="utf-8") as whole, open(quarter_source, "w", encoding="utf-8") as quarter:
            lines = whole.readlines()
            quarter.writelines(lines[: max(2, len(lines) // 4)])
    else:
        trace(quarter_source, max(1, args.requests // 4))
    _, quarter_peak = report(quarter_source, os.path.join(folder, "quarter.html"))

    browser = Browser(args.chromium, os.path.join(folder, "profile"))
    try:
        target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        browser.call("Page.enable", session=session)
        browser.call("Page.navigate", {"url": "file://" + page}, session)
        deadline = time.monotonic() + 120
        while browser.evaluate(session, "document.body && document.body.dataset.ready === 'true'") is not True:
            if time.monotonic() > deadline:
                sys.exit("the page never drew its waterfall")
            time.sleep(0.05)
        # The paint entries come once the frame after the script is drawn.
        paint = browser.evaluate(session, """new Promise(done => requestAnimationFrame(() => setTimeout(() => {
            const entries = performance.getEntriesByType('paint');
            done((entries.find(e => e.name === 'first-contentful-paint') || entries[0] || {startTime: -1}).startTime);
        }, 100)))""")
        ready = browser.evaluate(session, "performance.now()")
        rows = browser.evaluate(session, "document.querySelectorAll('[data-kind]').length")
        scrolled = browser.evaluate(session, """new Promise(done => {
            const scroller = document.querySelector('.scroller');
            const start = performance.now();
            scroller.scrollTop = scroller.scrollHeight / 2;
            requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - start)));
        })""")
        filtered = browser.evaluate(session, """(() => {
            const start = performance.now();
            document.querySelector('input[name=outcome][value=ok]').click();
            return performance.now() - start;
        })()""")
        print(f"Chromium: first paint {paint / 1000:.2f} s after navigation, waterfall drawn by {ready / 1000:.2f} s "
              f"({rows} rows in the page of {requests:,}); a scroll drawn in {scrolled:.0f} ms, a filter applied in {filtered:.0f} ms")
        growth = f"; peak memory {peak_mb / quarter_peak:.2f}x that of a trace a quarter the size (flat: 1.0)" if peak_mb and quarter_peak else ""
        print(f"against the goals: written in {written:.2f} s of 1 s, first paint {paint / 1000:.2f} s of 0.5 s{growth}")
        if not args.trace and args.requests == 100_000:
            last_peak = f", peak {peak_mb / LAST['peak']:.2f}" if peak_mb else ""
            print(f"against the last figures ({LAST['written']} s, {LAST['peak']} MB, first paint {LAST['paint']} s): "
                  f"written {written / LAST['written']:.2f}{last_peak}, first paint {paint / 1000 / LAST['paint']:.2f}")
    finally:
        browser.close()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
