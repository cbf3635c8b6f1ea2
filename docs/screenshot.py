"""The README's screenshot of a real HTML report: the demo's last report to alice, as a browser
shows it (docs/images/report-demo-alice.png).

    python3 docs/screenshot.py                      # rewrites docs/images/report-demo-alice.png
    python3 docs/screenshot.py --out /tmp/r.png     # elsewhere

Run from the top of the repository (pbem need not be installed); it needs what the browser tests
need (Debian's chromium and the playwright package: tests/browser.py). It plays `pbem demo` in a
temporary judge home, takes alice's last report from the outbox, writes its HTML part and its
map (by Content-ID) to a temporary folder, the `cid:` link turned into the file's name, and has
headless Chromium take the top of the page. The demo's orders are scripted, but its seed is
new each run: the dates, the lords' names and who plays first differ from one run to the next.
"""
from __future__ import annotations

import argparse
import email
import email.policy
import io
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from PIL import Image  # noqa: E402

from browser import chromium, missing_browser  # noqa: E402  (tests/browser.py: the tests' browser)
from pbem.demo import run_demo  # noqa: E402
from pbem.judge.home import load_home  # noqa: E402
from pbem.judge.store import Store  # noqa: E402

OUT = ROOT / "docs" / "images" / "report-demo-alice.png"
VIEWPORT = {"width": 960, "height": 1250}     # the title, the map and the first events


def report_page(home_dir: Path, folder: Path) -> Path:
    """The last report mailed to the first player (the demo's alice) as an HTML file in
    ``folder``, its map beside it: read from the outbox Maildir (the store keeps no sent mail's
    body), where the demo's judge home files each recipient's mail in a folder of their own."""
    home = load_home(home_dir)
    store = Store(home.db_path)
    try:
        row = store.one("SELECT email FROM players WHERE seat=0 ORDER BY game_id LIMIT 1")
    finally:
        store.close()
    mails = [email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
             for path in sorted((home.path / "mail" / "outbox" / row["email"] / "new").iterdir())] if row else []
    reports = [m for m in mails if "resolved" in str(m["Subject"])]
    if not reports:
        raise SystemExit(f"no report to the first player in {home_dir}")
    mail = max(reports, key=lambda m: m["Date"].datetime)
    html = mail.get_body(("html",)).get_content()
    for n, part in enumerate(p for p in mail.walk() if p.get_content_maintype() == "image"):
        name = f"map-{n}.png"
        (folder / name).write_bytes(part.get_content())
        html = html.replace(f"cid:{part['Content-ID'].strip('<>')}", name)
    page = folder / "report.html"
    page.write_text(html, encoding="utf-8")
    return page


def screenshot(out: Path) -> int:
    """Write the screenshot to ``out``; its size in bytes."""
    problem = missing_browser()
    if problem:
        raise SystemExit(f"cannot take the screenshot: {problem}")
    with tempfile.TemporaryDirectory() as tmp:
        for _ in run_demo(Path(tmp) / "home"):
            pass
        page_file = report_page(Path(tmp) / "home", Path(tmp))
        with chromium() as browser:
            page = browser.new_page(viewport=VIEWPORT)
            page.goto(page_file.as_uri())
            page.wait_for_load_state("load")
            if not page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 0)"):
                raise SystemExit("the report's map did not load in the browser")
            shot = page.screenshot()
    # 256 colours by an octree, which keeps the small areas of strong colour (a median cut greys
    # the families' marks): a quarter of the bytes in the repository, no difference a reader sees
    with Image.open(io.BytesIO(shot)) as img:
        img.convert("RGB").quantize(256, method=Image.Quantize.FASTOCTREE).save(out, format="PNG", optimize=True)
    return out.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"the PNG to write (default {OUT.relative_to(ROOT)})")
    args = parser.parse_args()
    size = screenshot(args.out)
    print(f"wrote {args.out} ({size} bytes)")


if __name__ == "__main__":
    main()
