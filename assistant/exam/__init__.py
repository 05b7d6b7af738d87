"""Exam material for instructors: question sets generated from the corpus, the terminology, the
edition alignment and change classes, and the ruling trees, with answer keys citing clause ids.

One module per question kind (ruling, which_law, cloze, changes, matching); `build.generate` makes a
set; `export` writes Markdown, Anki CSV and HTML; `sources` is the only adapter to other layers.
"""

from .build import generate
from .export import render
from .model import DIFFICULTIES, FORMATS, KINDS, ExamSet, Question

__all__ = ["DIFFICULTIES", "FORMATS", "KINDS", "ExamSet", "Question", "generate", "render"]
