"""The Exam page in the app's page table: instructors generate question sets and download them."""

from __future__ import annotations

from .exam_page import render_exam_page
from .render import Ctx, set_title


def render(ctx: Ctx) -> None:
    """Draw the exam generator (its own widgets carry keys for AppTest)."""
    set_title(ctx, ctx.t("page_exam"))
    render_exam_page(ctx)
