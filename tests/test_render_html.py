"""The HTML report: one self-contained page with the Markdown sections and plots."""

from __future__ import annotations

import math
import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
from conftest import load_report as load

from torch_investigate.agent.render import render
from torch_investigate.agent.render.html import to_html
from torch_investigate.tools.records import RunSummary

NAMES = ["buggy", "healthy", "inconclusive", "static_only"]
CHROMIUM = "/usr/bin/chromium"
SECTION_HEADINGS = [
    "Training signals",
    "Stages",
    "Findings",
    "A. Most likely root cause",
    "B. Confirmed defects",
    "C. Plausible but unproven causes",
    "D. Experiments to run next, ordered by information value",
    "E. Changes NOT to attempt yet",
    "Runs",
    "Git",
]
FINDING_LABELS = [
    "Category",
    "Stage",
    "Status",
    "Confidence",
    "Where",
    "Observed evidence",
    "Why it breaks learning",
    "Smallest test or change that confirms it",
]


def svg(html: str, plot_id: str) -> str:
    match = re.search(rf'<svg id="{plot_id}".*?</svg>', html, re.S)
    assert match, plot_id
    return match.group(0)


def data_points(html: str, plot_id: str) -> int:
    match = re.search(rf'<svg id="{plot_id}" data-points="(\d+)"', html)
    assert match, plot_id
    return int(match.group(1))


@pytest.mark.parametrize("name", NAMES)
def test_page_is_self_contained(name: str) -> None:
    html = render(load(name), "html")
    assert html.startswith("<!doctype html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:|//|file:|data:)""", html, re.I)
    assert not re.search(r"https?://", html)
    assert "<script" not in html.lower() and "<link" not in html.lower()
    assert "@import" not in html and "url(" not in html and "@font-face" not in html


@pytest.mark.parametrize("name", NAMES)
def test_sections_match_the_markdown_report(name: str) -> None:
    html = to_html(load(name))
    positions = [html.index(f"<h2>{h}</h2>") for h in SECTION_HEADINGS]
    assert positions == sorted(positions)


def test_every_finding_shows_every_field() -> None:
    report = load("buggy")
    html = to_html(report)
    for f in report.findings:
        block = re.search(
            rf'<div class="finding [a-z]+" id="finding-{f.id}">.*?</dl></div>', html, re.S
        )
        assert block, f.id
        labels = FINDING_LABELS if f.status != "refuted" else FINDING_LABELS[:6]
        for label in labels:
            assert f"<dt>{label}</dt>" in block.group(0), (f.id, label)


def test_repo_text_is_escaped() -> None:
    html = to_html(load("buggy"))
    assert "<script>" not in html
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html
    assert "examples/rings&lt;bars&gt;" in html
    assert "a &lt;different&gt; tokenizer" in html
    assert "<bars>" not in html and "<different>" not in html


def test_plots_are_drawn_with_point_counts() -> None:
    report = load("buggy")
    html = to_html(report)
    assert data_points(html, "plot-loss") == sum(len(r.losses) for r in report.runs)
    loss = svg(html, "plot-loss")
    assert loss.count('<path class="series"') == 3  # the crashed run has no losses
    assert "no losses recorded" in loss
    assert 'data-scale="log"' in loss  # 0.004 .. 1.9e6 spans far more than 2 decades
    # Gradient flow: embed has no gradient and fc2.bias a zero one; neither fits a log axis.
    assert data_points(html, "plot-grad-flow") == 3
    grads = svg(html, "plot-grad-flow")
    assert "none (no gradient)" in grads and "0 (not on a log axis)" in grads
    ratios = svg(html, "plot-update-ratio")
    assert data_points(html, "plot-update-ratio") == 3
    assert 'class="reference"' in ratios and ">1e-3</text>" in ratios


def test_loss_scale_is_linear_for_a_narrow_range() -> None:
    html = to_html(load("healthy"))
    assert 'data-scale="linear"' in svg(html, "plot-loss")
    assert data_points(html, "plot-loss") == 60


def test_non_finite_losses_break_the_curve_and_are_marked() -> None:
    report = load("healthy")
    report.runs.append(
        RunSummary(
            label="lr_x10",
            interventions=["scale_lr:10"],
            status="stopped",
            steps=6,
            losses=[1.2, 0.9, math.nan, 0.8, math.inf, 5.0],
        )
    )
    html = to_html(report)
    loss = svg(html, "plot-loss")
    assert data_points(html, "plot-loss") == 60 + 4
    assert "2 non-finite" in loss
    paths = re.findall(r'<path class="series" data-run="scale_lr:10" d="([^"]+)"', loss)
    assert len(paths) == 1 and paths[0].count("M") == 1  # [1.2, 0.9] is the only 2-point piece
    assert loss.count("<circle") == 2  # 0.8 and 5.0 stand alone between non-finite values
    assert "nan" not in paths[0].lower() and "inf" not in paths[0].lower()


def test_legend_names_runs_apart_and_cuts_none_off() -> None:
    """Stage 2's pair of runs differ only in their last change; in full words both read
    "with one fixed batch, the loss also measured ..." and the legend cut them alike. The
    legend names them short, says them in full on hover, and wraps what is too wide."""
    from torch_investigate.agent.render._interventions import INTERVENTIONS
    from torch_investigate.agent.render._svg import LEGEND_CHAR_PX

    report = load("healthy")
    pair = ["fixed_batch", "holdout", "fixed_pool=7", "reference_lr=0.001"]
    every = [k + ("=3" if "{value}" in n.words else "") for k, n in INTERVENTIONS.items()]
    for changes in (pair, [*pair, "shuffle_targets"], every):
        report.runs.append(
            RunSummary(label=",".join(changes), interventions=changes, status="stopped",
                       steps=3, losses=[1.0, 0.9, 0.8])
        )  # fmt: skip
    loss = svg(to_html(report), "plot-loss")
    entries = re.findall(r'<text class="legend" x="(\d+)"[^>]*>(.*?)</text>', loss, re.S)
    names = [re.sub(r"<title>.*?</title>|<[^>]+>", "", body) for _, body in entries]
    assert "fixed batch, held-out, pool of 7, Adam lr 0.001 (3 points)" in names
    assert "fixed batch, held-out, pool of 7, Adam lr 0.001, shuffled targets (3 points)" in names
    assert "<title>with one fixed batch, the loss also measured on an unseen batch" in loss
    width = int(re.search(r'width="(\d+)"', loss)[1])
    for x, body in entries:  # every line of every entry ends before the plot's edge
        for line in re.findall(r"<tspan x=[^>]*>(.*?)</tspan>(?=<tspan x=|$)", body, re.S):
            text = re.sub(r"<[^>]+>", "", line)
            assert int(x) + len(text) * LEGEND_CHAR_PX <= width, text
    assert max(len(re.findall(r"<tspan x=", body)) for _, body in entries) > 1  # wrapped


def test_empty_plots_say_so() -> None:
    html = to_html(load("static_only"))
    for plot_id in ("plot-loss", "plot-grad-flow", "plot-update-ratio"):
        assert data_points(html, plot_id) == 0
    assert "the training path was not run" in svg(html, "plot-loss")
    assert "no per-layer values were recorded" in svg(html, "plot-grad-flow")


def test_runs_with_only_non_finite_losses_still_render() -> None:
    report = load("static_only")
    report.runs.append(RunSummary(label="baseline", status="stopped", losses=[math.nan]))
    html = to_html(report)
    assert data_points(html, "plot-loss") == 0
    assert "no finite loss values were recorded" in html


def test_many_layers_are_bounded_with_a_note() -> None:
    report = load("healthy")
    stat = report.gradient_flow[0]
    report.gradient_flow = [
        stat.model_copy(update={"name": f"blocks.{i}.weight"}) for i in range(300)
    ]
    html = to_html(report)
    assert data_points(html, "plot-grad-flow") == 120
    assert "180 more layers not drawn" in html


def test_healthy_page_shows_passed_checks_with_evidence() -> None:
    report = load("healthy")
    html = to_html(report)
    for stage in report.stages:
        for item in stage.checklist:
            assert f"<code>{item.id}</code>" in html
    assert "0 of 960 eval row hashes found among 3840 train rows" in html
    assert "None: no defect was found." in html


# --- the page as a browser draws it -------------------------------------------------


def decode_png(data: bytes) -> tuple[int, int, int, bytes]:
    """(width, height, bytes per pixel, raw rows) for 8-bit RGB/RGBA non-interlaced PNGs."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        chunk = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = chunk
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and color in (2, 6) and interlace == 0
    bpp = 3 if color == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    out = bytearray(height * stride)
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        ftype = raw[start]
        line = bytearray(raw[start + 1 : start + 1 + stride])
        if ftype == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif ftype == 2:
            line = bytearray((a + b) & 0xFF for a, b in zip(line, prev, strict=True))
        elif ftype == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif ftype == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 0xFF
        out[y * stride : (y + 1) * stride] = line
        prev = line
    return width, height, bpp, bytes(out)


def count_pixels_near(png: tuple[int, int, int, bytes], rgb: tuple[int, int, int], tol: int) -> int:
    width, height, bpp, pixels = png
    r0, g0, b0 = rgb
    count = 0
    for i in range(0, width * height * bpp, bpp):
        if (
            abs(pixels[i] - r0) <= tol
            and abs(pixels[i + 1] - g0) <= tol
            and abs(pixels[i + 2] - b0) <= tol
        ):
            count += 1
    return count


def chromium(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.slow
@pytest.mark.skipif(shutil.which(CHROMIUM) is None, reason="chromium is not installed")
def test_browser_draws_the_plots(tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    page.write_text(to_html(load("buggy")), encoding="utf-8")
    url = page.as_uri()

    dom = chromium(["--dump-dom", url], tmp_path).stdout
    for plot_id in ("plot-loss", "plot-grad-flow", "plot-update-ratio"):
        assert f'id="{plot_id}"' in dom
    assert dom.count('class="series"') == 3
    assert dom.count('class="bar"') == 6

    # The plots sit right under the header, so their marks are on screen. Orange (the
    # intervention curve) and steel blue (the bars) appear nowhere else on the page:
    # the static-only report, with empty plots, is the control that shows it.
    orange, blue = (0xFF, 0x7F, 0x0E), (0x4C, 0x78, 0xA8)
    drawn = screenshot(page, tmp_path)
    assert drawn[0] == 1200 and drawn[1] == 1400
    assert count_pixels_near(drawn, orange, 40) > 400
    assert count_pixels_near(drawn, blue, 20) > 5000

    control = tmp_path / "control.html"
    control.write_text(to_html(load("static_only")), encoding="utf-8")
    empty = screenshot(control, tmp_path)
    assert count_pixels_near(empty, orange, 40) == 0
    assert count_pixels_near(empty, blue, 20) == 0


def screenshot(page: Path, tmp_path: Path) -> tuple[int, int, int, bytes]:
    shot = tmp_path / f"{page.stem}.png"
    chromium([f"--screenshot={shot}", "--window-size=1200,1400", page.as_uri()], tmp_path)
    return decode_png(shot.read_bytes())
