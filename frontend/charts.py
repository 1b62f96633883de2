"""Charts drawn by the server as SVG: pure functions from data to the geometry a template draws."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from django.utils.safestring import mark_safe

from rulesets.names import plural

# Okabe–Ito colours (safe for colour-blind readers) plus a dash pattern each, so lines differ without colour.
PALETTE: tuple[tuple[str, str], ...] = (
    ("#0072b2", ""),
    ("#d55e00", "7 3"),
    ("#009e73", "2 3"),
    ("#cc79a7", "9 3 2 3"),
    ("#7a5a00", "4 2"),
    ("#56b4e9", "1 3"),
    ("#000000", "12 4"),
    ("#8c2d04", "3 3 1 3"),
)


# A chart's drawing width in SVG units: about a phone's content width (a 390 px screen less its margins), so
# 13-unit labels draw at 12 px or more there; wider screens scale the drawing up to the figure's max-width.
PHONE_WIDTH = 340


def gp_text(n: int | None) -> str:
    """Gold pieces as the pages write them: ``1,200 gp`` (``—`` for none)."""
    return "—" if n is None else f"{n:,} gp"


def _nice_step(span: float, ticks: int) -> int:
    """A round step (1, 2, 5 × 10^k, at least 1) that cuts ``span`` into about ``ticks`` parts."""
    raw = max(span / max(ticks, 1), 1)
    magnitude = 10 ** (len(str(int(raw))) - 1)
    for m in (1, 2, 5, 10):
        if m * magnitude >= raw:
            return m * magnitude
    return 10 * magnitude


def gold_chart(
    rows: list[dict[str, Any]], heroes: list[str], last_version: int, *, causes: Mapping[str, str] | None = None,
    width: int = PHONE_WIDTH, height: int = 280, small: bool = False,
) -> dict[str, Any]:  # fmt: skip
    """Geometry of a step chart of each hero's gold (x = stream version, y = gold), for ``campaigns/_chart.html``.

    ``rows``: gold ledger rows (``hero``, ``version``, ``delta``, ``balance``, ``cause``) in order;
    ``causes``: cause → the words a dot's tooltip uses for it.
    """
    causes = causes or {}
    series: dict[str, list[dict[str, Any]]] = {name: [] for name in heroes}
    for row in rows:
        series.setdefault(row["hero"], []).append(row)
    frame = _frame(width, height, small)
    left, top, plot_w, plot_h = frame["left"], frame["top"], frame["plot_w"], frame["plot_h"]
    x_max = max(last_version, 1)
    top_gold = max([r["balance"] for r in rows] + [0])
    y_step = _nice_step(max(top_gold, 100), 3 if small else 4)
    y_max = max(y_step * -(-max(top_gold, 1) // y_step), y_step)

    def x(v: int) -> float:
        return round(left + plot_w * v / x_max, 1)

    def y(g: int) -> float:
        return round(top + plot_h - plot_h * g / y_max, 1)

    lines = []
    for n, (name, hero_rows) in enumerate(series.items()):
        colour, dash = PALETTE[n % len(PALETTE)]
        points = [(x(0), y(0))]
        balance = 0
        dots = []
        for r in hero_rows:
            v = r["version"] or 0
            points += [(x(v), y(balance)), (x(v), y(r["balance"]))]
            balance = r["balance"]
            dots.append(
                {
                    "cx": x(v),
                    "cy": y(balance),
                    "title": f"{name}, entry {v}: {r['delta']:+,} gp ({causes.get(r['cause'], r['cause'])}) "
                    f"→ {balance:,} gp",
                }
            )
        points.append((x(last_version), y(balance)))
        lines.append(
            {
                "hero": name,
                "label": name,
                "value_text": gp_text(balance),
                "colour": colour,
                "dash": dash,
                "points": " ".join(f"{px},{py}" for px, py in points),
                "dots": [] if small else dots,
                "gold": balance,
                "gold_text": gp_text(balance),
                "title": f"{name}: {balance:,} gp at entry {last_version} ({plural(len(hero_rows), 'change')})",
            }
        )
    x_step = _nice_step(x_max, 4 if small else 6)
    x_ticks = [{"v": v, "x": x(v)} for v in range(0, x_max + 1, x_step)]
    y_ticks = [{"g": f"{g:,}", "y": y(g)} for g in range(0, y_max + 1, y_step)]
    return {
        **frame,
        "title": "Gold pieces of each hero, entry by entry",
        "x_label": "Entry (version)",
        "y_label": "Gold pieces",
        "empty": "No heroes yet.",
        "lines": lines,
        "x_ticks": x_ticks,
        "y_ticks": y_ticks,
        "last_version": last_version,
        "summary": f"At entry {last_version}: "
        + ("; ".join(f"{line['hero']} {line['gold']:,} gp" for line in lines) or "no heroes yet"),
    }


def _frame(width: int, height: int, small: bool) -> dict[str, Any]:
    """The plot area of a chart: margins for the axis labels, and where the labels go."""
    left, right, top, bottom = (58, 10, 10, 36) if small else (62, 12, 12, 42)
    plot_w, plot_h = width - left - right, height - top - bottom
    return {
        "width": width,
        "height": height,
        "small": small,
        "left": left,
        "top": top,
        "plot_w": plot_w,
        "plot_h": plot_h,
        "right_x": width - right,
        "bottom_y": top + plot_h,
        "mid_x": left + plot_w / 2,
        "mid_y": top + plot_h / 2,
        "label_y": height - 6,
    }


def points_chart(players: list[dict[str, Any]], *, width: int = PHONE_WIDTH, height: int = 260) -> dict[str, Any]:
    """Geometry of each player's running points after each counted match of a series (x = match number, 0 =
    before the first), for ``_chart.html``. ``players``: ``[{"player", "points": [running total per match]}]``."""
    return line_chart(
        [{"label": p["player"], "values": p["points"]} for p in players],
        title="Points of each player, match by match", x_label="Matches counted", y_label="Points",
        empty="No finished match yet.", unit=("point", "points"), steps=("match", "matches"), width=width,
        height=height,
    )  # fmt: skip


def line_chart(
    series: list[dict[str, Any]], *, title: str, x_label: str, y_label: str, empty: str,
    unit: tuple[str, str], steps: tuple[str, str], width: int = PHONE_WIDTH, height: int = 260,
) -> dict[str, Any]:  # fmt: skip
    """Geometry of one line per series (``[{"label", "values": [value after step 1, 2, …]}]``, each from 0
    before the first step) for ``campaigns/_chart.html``; ``unit`` and ``steps`` (singular, plural) word the
    tooltips and the summary ("Ana after match 2: 5 points")."""
    frame = _frame(width, height, False)
    left, top, plot_w, plot_h = frame["left"], frame["top"], frame["plot_w"], frame["plot_h"]
    count = max((len(p["values"]) for p in series), default=0)
    x_max = max(count, 1)
    top_value = max([v for p in series for v in p["values"]] + [0])
    y_step = _nice_step(max(top_value, 5), 4)
    y_max = max(y_step * -(-max(top_value, 1) // y_step), y_step)
    short = {"point": "pt", "points": "pts"}
    lines = []
    for n, p in enumerate(series):
        colour, dash = PALETTE[n % len(PALETTE)]
        values = [0, *p["values"]]
        coords = [
            (round(left + plot_w * i / x_max, 1), round(top + plot_h - plot_h * v / y_max, 1))
            for i, v in enumerate(values)
        ]
        total = values[-1]
        word = unit[0] if total == 1 else unit[1]
        lines.append(
            {
                "label": p["label"],
                "value_text": f"{total:,} {short.get(word, word)}",
                "colour": colour,
                "dash": dash,
                "points": " ".join(f"{x},{y}" for x, y in coords),
                "dots": [
                    {"cx": x, "cy": y, "title": f"{p['label']} after {steps[0]} {i}: {v:,} {unit[1]}"}
                    for i, ((x, y), v) in enumerate(zip(coords, values, strict=True))
                    if i
                ],
                "title": f"{p['label']}: {total:,} {unit[1]} after {len(p['values'])} {steps[1]}",
            }
        )
    x_step = _nice_step(x_max, 6)
    return {
        **frame,
        "title": title,
        "x_label": x_label,
        "y_label": y_label,
        "empty": empty,
        "lines": lines,
        "x_ticks": [{"v": v, "x": round(left + plot_w * v / x_max, 1)} for v in range(0, x_max + 1, x_step)],
        "y_ticks": [
            {"g": f"{g:,}", "y": round(top + plot_h - plot_h * g / y_max, 1)} for g in range(0, y_max + 1, y_step)
        ],
        "summary": f"After {count} {steps[1]}: "
        + ("; ".join(f"{line['label']} {line['value_text']}" for line in lines) or "nothing yet"),
    }


def bar_chart(
    labels: list[str], series: Mapping[str, list[int | float]], *, title: str, y_label: str = "",
    width: int = PHONE_WIDTH, height: int = 220,
) -> dict[str, Any]:  # fmt: skip
    """Geometry of a (stacked) bar chart for ``stats/_bars.html``: one bar per label, one layer per series.

    ``series`` maps a name to one value per label; layers stack in the order given. The returned ``rows``
    repeat the figures for the accessible table drawn beside the chart.
    """
    left, right, top, bottom = 44, 8, 10, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    totals = [sum(values[i] for values in series.values()) for i in range(len(labels))]
    peak = max([*totals, 1])
    step = _nice_step(peak, 4)
    y_max = max(step * -(-peak // step), step)
    slot = plot_w / max(len(labels), 1)
    bar_w = round(max(min(slot * 0.7, 48), 2), 1)
    bars = []
    for i, label in enumerate(labels):
        base = 0.0
        x = round(left + slot * i + (slot - bar_w) / 2, 1)
        for n, (name, values) in enumerate(series.items()):
            value = values[i]
            if not value:
                continue
            h = plot_h * value / y_max
            y = top + plot_h - plot_h * base / y_max - h
            colour, _ = PALETTE[n % len(PALETTE)]
            bars.append(
                {
                    "x": x,
                    "y": round(y, 1),
                    "w": bar_w,
                    "h": round(h, 1),
                    "colour": colour,
                    "title": f"{label}: {name} {value}",
                }
            )
            base += value
    widest = max((len(label) for label in labels), default=1)
    fit = max(2, min(8, int(plot_w // (widest * 7 + 8))))  # labels that fit side by side at 12 px
    every = max(1, -(-len(labels) // fit))
    x_labels = [
        {"x": round(left + slot * i + slot / 2, 1), "text": label} for i, label in enumerate(labels) if i % every == 0
    ]
    y_ticks = [{"v": v, "y": round(top + plot_h - plot_h * v / y_max, 1)} for v in range(0, int(y_max) + 1, int(step))]
    legend = [{"name": name, "colour": PALETTE[n % len(PALETTE)][0]} for n, name in enumerate(series)]
    rows = [
        {"label": label, "values": [values[i] for values in series.values()], "total": totals[i]}
        for i, label in enumerate(labels)
    ]
    return {
        "title": title,
        "y_label": y_label,
        "width": width,
        "height": height,
        "left": left,
        "top": top,
        "right_x": width - right,
        "bottom_y": top + plot_h,
        "label_y": top + plot_h + 16,
        "bars": bars,
        "x_labels": x_labels,
        "y_ticks": y_ticks,
        "legend": legend if len(series) > 1 else [],
        "names": list(series),
        "rows": rows,
        "summary": f"{len(labels)} bars, largest {peak}" if labels else "no data",
        # the chart's two long loops as markup built here in one pass (a template loop costs ~20 µs per cell)
        "bars_html": mark_safe(
            "".join(
                f'<rect x="{b["x"]}" y="{b["y"]}" width="{b["w"]}" height="{b["h"]}" fill="{b["colour"]}">'
                f"<title>{escape(b['title'])}</title></rect>"
                for b in bars
            )
        ),
        "rows_html": mark_safe(
            "".join(
                f'<tr><th scope="row">{escape(r["label"])}</th>'
                + "".join(f"<td>{v}</td>" for v in ([*r["values"], r["total"]] if len(series) > 1 else r["values"]))
                + "</tr>"
                for r in rows
            )
        ),
    }
