"""The archive's static site in a real browser (headless Chromium, tests/browser.py): every page
is reached from the index by its links, every link resolves to a file of the site, nothing is
fetched from anywhere else, every map loads and shows at a real size, and no page of a running
game holds a secret in the text the browser shows (site_support.leaks). Screenshots of every
page are kept under the test's temporary folder (printed by pytest -s; in tmp_path/screenshots)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from click.testing import CliRunner
from PIL import Image, ImageColor

from browser import chromium, missing_browser
from conftest import skip_or_fail
from judge_support import Judge
from pbem.cli import main
from site_support import fief_game_with_fog, leaks, secrets_of, site_files, tiny_game_over

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def browser():
    skip_or_fail(missing_browser(), "the browser (Chromium with playwright)")
    with chromium() as b:
        yield b


def walk(browser, folder: Path, shots: Path) -> dict[str, dict]:
    """Open index.html and every page its links reach; for each page (by its path in the site):
    its text as shown, its links' files, its pictures' sizes; a screenshot of each in ``shots``."""
    shots.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    outside: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith("file://") else None)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    seen: dict[str, dict] = {}
    todo = [folder / "index.html"]
    while todo:
        path = todo.pop()
        name = str(path.relative_to(folder))
        if name in seen:
            continue
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
        links = [page.evaluate("(a) => a.href", a) for a in page.query_selector_all("a[href]")]
        files = []
        for href in links:
            url = urlparse(href)
            assert url.scheme == "file", f"{name}: a link out of the site: {href}"
            target = Path(unquote(url.path))
            assert target.is_file(), f"{name}: the link {href} leads nowhere"
            assert target.resolve().is_relative_to(folder.resolve()), f"{name}: {href} leaves the site"
            files.append(target)
            if target.suffix == ".html":
                todo.append(target)
        pictures = page.evaluate("""[...document.images].map(i => ({src: i.getAttribute('src'),
            complete: i.complete, natural: [i.naturalWidth, i.naturalHeight],
            shown: [i.getBoundingClientRect().width, i.getBoundingClientRect().height]}))""")
        page.screenshot(path=str(shots / (name.replace("/", "--") + ".png")), full_page=True)
        seen[name] = {"text": page.inner_text("body"), "links": files, "pictures": pictures}
    page.close()
    assert outside == [], f"pages fetched from outside the site: {outside}"
    assert errors == [], f"the browser reported errors: {errors}"
    return seen


def test_the_sites_every_page_link_and_map_work_in_a_browser_and_a_running_game_shows_no_secret(
        browser, tmp_path):
    judge = Judge(tmp_path / "home")
    fief_game_with_fog(judge)
    tiny_game_over(judge)
    folder = tmp_path / "site"
    result = CliRunner().invoke(main, ["site", "--all", str(folder), "--reveal", "--home", str(judge.home.path)])
    assert result.exit_code == 0, result.output
    pages = walk(browser, folder, tmp_path / "screenshots")

    # Every page of the site was reached through links, and every picture of the site is shown.
    assert set(pages) == {str(p.relative_to(folder)) for p in site_files(folder) if p.suffix == ".html"}
    shown = {folder / name.rpartition("/")[0] / pic["src"] for name, page in pages.items() for pic in page["pictures"]}
    assert shown == {p for p in site_files(folder) if p.suffix == ".png"} and shown
    for name, page in pages.items():
        for pic in page["pictures"]:
            assert pic["complete"] and pic["natural"] == [1400, 1000], (name, pic)
            width, height = pic["shown"]
            assert width >= 600 and height >= 400 and abs(width / height - 1.4) < 0.02, (name, pic)
    # Each phase page of the running game shows its map; its index the position now.
    loire = {n: p for n, p in pages.items() if n.startswith("loire/")}
    assert all(len(p["pictures"]) == 1 for n, p in loire.items() if n != "loire/timeline.html")

    secrets = secrets_of(judge, "loire")
    for name in [*loire, "index.html"]:
        assert leaks(pages[name]["text"], secrets) == [], name
    # ... while the finished game, revealed, shows what was hidden: the check can see a secret.
    revealed = "\n".join(p["text"] for n, p in pages.items() if n.startswith("bids/"))
    assert leaks(revealed, secrets_of(judge, "bids"))
    assert len(list((tmp_path / "screenshots").iterdir())) == len(pages)


def test_the_readmes_report_screenshot_is_made_by_its_documented_command(browser, tmp_path):
    """README: `python3 docs/screenshot.py` plays the demo and has the browser show alice's last
    report, its map loaded from the mail by Content-ID."""
    out = tmp_path / "report.png"
    done = subprocess.run([sys.executable, str(ROOT / "docs" / "screenshot.py"), "--out", str(out)],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert f"wrote {out}" in done.stdout
    with Image.open(out) as img:
        assert img.size == (960, 1250)
        # the map is in it: the four families' colours (Okabe-Ito), give or take the 256 colours kept
        colours = [rgb for n, rgb in img.convert("RGB").getcolors(960 * 1250) if n >= 20]
    for family in ("#E69F00", "#56B4E9", "#009E73", "#F0E442"):
        want = ImageColor.getrgb(family)
        assert min(max(abs(a - b) for a, b in zip(rgb, want, strict=True)) for rgb in colours) <= 8, family
