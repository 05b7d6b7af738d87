"""The Exam page in the app's page table: instructors generate question sets and download them."""

from __future__ import annotations

from .exam_page import render_exam_page
from .render import Ctx


def render(ctx: Ctx) -> None:
    """Draw the exam generator (its own widgets carry keys for AppTest)."""
    render_exam_page()
